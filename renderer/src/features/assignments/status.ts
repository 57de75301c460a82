import type { Tone } from '../../components/StatusTag';
import type { AssignmentPersonStatus } from '../../api/types';

export const STATUS_TONE: Record<AssignmentPersonStatus, Tone> = { done: 'success', pending: 'info', overdue: 'danger' };

export const STATUS_LABEL = { done: 'assignments.status.done', pending: 'assignments.status.pending', overdue: 'assignments.status.overdue' } as const;
export const ITEM_TYPE_LABEL = { exam: 'assignments.itemType.exam', course: 'assignments.itemType.course', roleplay: 'assignments.itemType.roleplay' } as const;
