import type { ParseKeys } from 'i18next';
import type { QuestionType } from '../../api/types';

export const questionTypes: QuestionType[] = ['single', 'multiple', 'true_false'];

export const questionTypeLabel: Record<QuestionType, ParseKeys> = { single: 'bank.type.single', multiple: 'bank.type.multiple', true_false: 'bank.type.true_false' };
