// Rule 2.3.2 answers: reading them against a session's answer key, grading and scoring. Pure and linear in the question count.
import type { AnswerDetail, AnswerValue, QuestionType } from '../../contract/exams.js';

/** A question as frozen into a session at start: its option keys and correct keys. */
export interface KeyedQuestion {
  id: number;
  type: QuestionType;
  keys: string[];
  answer: string[];
  /** The question's version when the session drew it (absent in sessions started before versions existed). */
  version?: number;
  /**
   * Set when the session shuffled the options: the question's own keys in the order shown. The candidate saw the
   * i-th shown option under the label `keys[i]`, so labels are read back through this (see fromShown / toShown).
   */
  shown?: string[];
}

/**
 * One question's answer: the option keys it selects, or (graded wrong) what was sent when it cannot be read as
 * keys of that question.
 */
export type Answer = { keys: string[] } | { unusable: AnswerValue };

/** The answer per question id; a question that is absent was not answered. */
export type Selection = Map<number, Answer>;

const isScalar = (value: unknown): value is string | number | boolean => ['string', 'number', 'boolean'].includes(typeof value);

/** The question's own spelling of a key sent in another case ("b" → "B", "TRUE" → "true"); unknown keys stay as sent. */
const canonical = (question: KeyedQuestion, key: string): string => {
  if (question.keys.includes(key)) return key;
  const wanted = key.trim().toLowerCase();
  return question.keys.find((own) => own.toLowerCase() === wanted) ?? key;
};

/** The option keys a value names in a form the question type takes, or undefined when it has none. */
function keysOf(question: KeyedQuestion, value: unknown): string[] | undefined {
  if (question.type === 'multiple') {
    if (typeof value === 'string') {
      const whole = canonical(question, value);
      return question.keys.includes(whole) ? [whole] : value.split(',').map((key) => key.trim()).filter(Boolean).map((key) => canonical(question, key));
    }
    if (Array.isArray(value) && value.every((key) => typeof key === 'string')) return [...new Set(value.map((key) => canonical(question, key)))];
    return undefined;
  }
  // One key is expected; a list of one (the shape of a question's answer) is read as that key.
  const one: unknown = Array.isArray(value) && value.length <= 1 ? (value[0] ?? '') : value;
  if (question.type === 'true_false' && typeof one === 'boolean') return [String(one)];
  if (typeof one === 'string') return one.trim() === '' ? [] : [canonical(question, one)];
  return undefined;
}

/** The option a shown label stands for (a label that is not one stays as it is). */
const fromShown = (question: KeyedQuestion, label: string): string => {
  const at = question.shown ? question.keys.indexOf(label) : -1;
  return at < 0 ? label : question.shown![at]!;
};

/** The label under which an option was shown. */
const toShown = (question: KeyedQuestion, key: string): string => {
  const at = question.shown ? question.shown.indexOf(key) : -1;
  return at < 0 ? key : question.keys[at]!;
};

/** undefined = unanswered (null, "", []). */
function answerOf(question: KeyedQuestion, value: unknown): Answer | undefined {
  if (value === null || value === undefined) return undefined;
  const keys = keysOf(question, value);
  if (keys?.every((key) => question.keys.includes(key))) return keys.length ? { keys: keys.map((label) => fromShown(question, label)) } : undefined;
  // Recorded as sent, in the detail's string-or-array shape.
  if (Array.isArray(value)) return { unusable: value.filter(isScalar).map(String) };
  return { unusable: isScalar(value) ? String(value) : encode(question, []) };
}

/**
 * Reads a raw answer map (key = question id as a string) against the session's questions. Nothing is refused, so
 * an attempt is never lost: keys that are not questions of the session are ignored, and a value that names no
 * option of its question (an unknown key, a number, an array for single choice…) is kept as sent and graded wrong.
 */
export function parseAnswers(questions: KeyedQuestion[], raw: Record<string, unknown>): Selection {
  const selection: Selection = new Map();
  // Walks the session's questions and looks each one up in the map (integer-like keys are array-indexed in V8):
  // no map of the questions to build, and the cost per question stays flat as exams grow.
  for (const question of questions) {
    const questionId = String(question.id);
    if (!Object.hasOwn(raw, questionId)) continue;
    const answer = answerOf(question, raw[questionId]);
    if (answer) selection.set(question.id, answer);
  }
  return selection;
}

/** Back to rule 2.3.2: a key string for single and true/false ("" when unanswered), keys in option order for multiple. */
export function encodeAnswer(type: QuestionType, optionKeys: string[], selected: string[]): AnswerValue {
  if (type !== 'multiple') return selected[0] ?? '';
  return optionKeys.filter((key) => selected.includes(key));
}

const encode = (question: KeyedQuestion, selected: string[]): AnswerValue => encodeAnswer(question.type, question.keys, selected);

/**
 * A graded detail in the labels the candidate saw (a shuffled session's result as shown to them); stored records
 * keep the question's own keys. Values that name no option (kept as sent) are left as they are.
 */
export function detailAsShown(questions: KeyedQuestion[], detail: AnswerDetail[]): AnswerDetail[] {
  const byId = new Map(questions.filter((q) => q.shown).map((q) => [q.id, q]));
  if (!byId.size) return detail;
  const relabel = (question: KeyedQuestion, value: AnswerValue): AnswerValue => {
    const keys = Array.isArray(value) ? value : value === '' ? [] : [value];
    if (!keys.every((key) => question.keys.includes(key))) return value;
    return encode(question, keys.map((key) => toShown(question, key)));
  };
  return detail.map((d) => {
    const question = byId.get(d.question_id);
    return question ? { ...d, user_answer: relabel(question, d.user_answer), correct_answer: relabel(question, d.correct_answer) } : d;
  });
}

/** Exact-set match: every correct key chosen and nothing else; no partial credit. */
const isExactSet = (selected: string[], correct: string[]): boolean =>
  selected.length === correct.length && selected.every((key) => correct.includes(key));

export interface Grading {
  detail: AnswerDetail[];
  correct: number;
}

export function grade(questions: KeyedQuestion[], selection: Selection): Grading {
  let correct = 0;
  const detail = questions.map((question): AnswerDetail => {
    const answer = selection.get(question.id);
    const selected = answer && 'keys' in answer ? answer.keys : [];
    const is_correct = isExactSet(selected, question.answer);
    if (is_correct) correct++;
    const user_answer = answer && 'unusable' in answer ? answer.unusable : encode(question, selected);
    return { question_id: question.id, is_correct, user_answer, correct_answer: encode(question, question.answer) };
  });
  return { detail, correct };
}

/**
 * total_score × correct / the number of questions the session drew (fewer than the paper's question_count when
 * the bank had fewer), rounded half up to two decimals. Done in integers (hundredths) so that
 * e.g. 100 × 2/3 is 66.67 and 5 × 1/8 is 0.63 exactly, with no binary floating-point drift.
 */
export function scoreOf(totalScore: number, correct: number, questionCount: number): number {
  if (questionCount <= 0) return 0;
  const hundredthsTimesCount = totalScore * correct * 100;
  return Math.floor((2 * hundredthsTimesCount + questionCount) / (2 * questionCount)) / 100;
}
