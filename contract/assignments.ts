// Assignments: an exam paper or a course assigned to people by rule (departments, positions, named people) with a
// due date; progress per person, reminders, the caller's own tasks (docs/api/assignments.md).

export type AssignmentItemType = 'exam' | 'course' | 'roleplay';
export type AssignmentPersonStatus = 'done' | 'pending' | 'overdue';

export interface AssignmentItem {
  type: AssignmentItemType;
  id: number;
  /** The paper's or course's name. */
  name: string;
}

export interface AssignmentTarget {
  department_ids: number[];
  position_ids: number[];
  user_ids: number[];
}

/** Names of the targets, for display (targets that no longer exist are left out). */
export interface AssignmentTargetNames {
  departments: { id: number; name: string }[];
  positions: { id: number; name: string }[];
  users: { id: number; full_name: string; username: string }[];
}

export interface AssignmentCounts {
  assigned: number;
  completed: number;
  overdue: number;
}

export interface Assignment extends AssignmentCounts {
  id: number;
  title: string;
  item: AssignmentItem;
  target: AssignmentTarget;
  target_names: AssignmentTargetNames;
  starts_at: string | null;
  due_at: string;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

export interface AssignmentPerson {
  user_id: number;
  full_name: string;
  username: string;
  department: string;
  status: AssignmentPersonStatus;
  done_at: string | null;
  /** An exam item: the person's best formal score so far (null before any) and the attempts they started; null for a course. */
  best_score: number | null;
  attempts: number | null;
}

export interface AssignmentProgress extends AssignmentCounts {
  people: AssignmentPerson[];
  /** People matching the filters (status, department, q); `people` is one page of them. */
  total: number;
  page: number;
  size: number;
}

/** One of the caller's assignments (GET /api/assignments/mine). */
export interface MyAssignment {
  id: number;
  title: string;
  item: AssignmentItem;
  starts_at: string | null;
  due_at: string;
  status: AssignmentPersonStatus;
  done_at: string | null;
}

export interface AssignmentInput {
  item: { type: AssignmentItemType; id: number };
  target: Partial<AssignmentTarget>;
  due_at: string;
  starts_at?: string | null;
  title?: string;
}

export interface RemindResult {
  reminded: number;
}

export const AssignmentErrorCode = {
  itemNotFound: 'assignment.item_not_found',
  paperNotFormal: 'assignment.paper_not_formal',
  targetNotFound: 'assignment.target_not_found',
  emptyTarget: 'assignment.empty_target',
  dueInPast: 'assignment.due_in_past',
  dueBeforeStart: 'assignment.due_before_start',
} as const;
