import type { ParseKeys } from 'i18next';
import type { AnswerValue, ExamStanding, PaperType, QuestionOption, QuestionType, SessionKind } from '../../api/types';
import type { Tone } from '../../components/StatusTag';

export const standing: Record<ExamStanding, { label: ParseKeys; tone: Tone }> = {
  not_started: { label: 'exams.standing.not_started', tone: 'neutral' },
  in_progress: { label: 'exams.standing.in_progress', tone: 'info' },
  passed: { label: 'exams.standing.passed', tone: 'success' },
  failed: { label: 'exams.standing.failed', tone: 'danger' },
};

export const paperType: Record<PaperType, ParseKeys> = { formal: 'exams.type.formal', self_test: 'exams.type.self_test' };

/** The server's standard true/false texts; an admin's own wording is shown as written. */
const STANDARD_TRUE_FALSE: Record<string, ParseKeys> = { True: 'exams.trueFalse.true', False: 'exams.trueFalse.false' };

/** An option's text in the interface language. */
export function optionLabel(type: QuestionType, option: QuestionOption, t: (key: ParseKeys) => string): string {
  const standard = type === 'true_false' ? STANDARD_TRUE_FALSE[option.text] : undefined;
  return standard ? t(standard) : option.text;
}

/** An answer as option texts: "A" → "A. Fixed income"; true/false by their label only. */
export function describeAnswer(type: QuestionType, options: QuestionOption[], value: AnswerValue | null, t: (key: ParseKeys) => string): string {
  const keys = Array.isArray(value) ? value : value ? [value] : [];
  if (!keys.length) return t('exams.answer.none');
  return keys
    .map((key) => {
      const option = options.find((o) => o.key === key);
      if (!option) return key;
      return type === 'true_false' ? optionLabel(type, option, t) : `${key}. ${option.text}`;
    })
    .join('; ');
}

/** A session's name as shown: a mistake-book retry is named by the interface, an exam by its paper. */
export const sessionName = (session: { kind: SessionKind; exam_name: string }, t: (key: ParseKeys) => string) => (session.kind === 'retry' ? t('exams.retryName') : session.exam_name);
