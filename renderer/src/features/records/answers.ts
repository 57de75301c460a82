import type { AnswerValue, QuestionOption, QuestionType } from '../../api/types';

/** Option keys as their texts: "A" → "A. Fixed income"; true/false by their label only. */
export function describeAnswer(type: QuestionType, options: QuestionOption[], value: AnswerValue): string {
  const keys = Array.isArray(value) ? value : value ? [value] : [];
  if (!keys.length) return 'No answer';
  return keys
    .map((key) => {
      const option = options.find((o) => o.key === key);
      if (!option) return key;
      return type === 'true_false' ? option.text : `${key}. ${option.text}`;
    })
    .join('; ');
}
