// Rule 2.3.2 answers: validation against a session's answer key, grading and scoring. Pure and linear in the question count.
import { ExamErrorCode, type AnswerDetail, type AnswerValue, type QuestionType } from '../../contract/exams.js';
import { AppError } from '../http/errors.js';

/** A question as frozen into a session at start: its option keys and correct keys. */
export interface KeyedQuestion {
  id: number;
  type: QuestionType;
  keys: string[];
  answer: string[];
}

/** The selected option keys per question id; a question that is absent was not answered. */
export type Selection = Map<number, string[]>;

export interface AnswerProblem {
  question_id: string;
  problem: string;
}

function selectionOf(question: KeyedQuestion, value: unknown): string[] | string {
  if (value === null || value === undefined) return [];
  if (question.type === 'multiple') {
    if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) return 'multiple choice expects an array of option keys';
    if (new Set(value).size !== value.length) return 'an option key is repeated';
    return value as string[];
  }
  if (typeof value !== 'string') {
    return question.type === 'true_false' ? 'true/false expects the string "true" or "false"' : 'single choice expects one option key as a string';
  }
  return value === '' ? [] : [value];
}

/**
 * Checks a raw answer map (key = question id as a string) against the session's questions. Every problem is
 * reported at once as a 400; nothing is graded or stored when there is one.
 */
export function parseAnswers(questions: KeyedQuestion[], raw: Record<string, unknown>): Selection {
  const selection: Selection = new Map();
  const problems: AnswerProblem[] = [];
  let known = 0;
  // Walks the session's questions and looks each one up in the map (integer-like keys are array-indexed in V8):
  // no map of the questions to build, and the cost per question stays flat as exams grow.
  for (const question of questions) {
    const questionId = String(question.id);
    if (!Object.hasOwn(raw, questionId)) continue;
    known++;
    const selected = selectionOf(question, raw[questionId]);
    if (typeof selected === 'string') {
      problems.push({ question_id: questionId, problem: selected });
      continue;
    }
    const unknown = selected.filter((key) => !question.keys.includes(key));
    if (unknown.length) problems.push({ question_id: questionId, problem: `unknown option key(s): ${unknown.join(', ')}` });
    else if (selected.length) selection.set(question.id, selected);
  }
  if (known !== Object.keys(raw).length) {
    const ids = new Set(questions.map((q) => String(q.id)));
    for (const key of Object.keys(raw)) if (!ids.has(key)) problems.push({ question_id: key, problem: 'not a question of this session' });
  }
  if (problems.length) {
    const first = problems[0]!;
    throw new AppError(400, ExamErrorCode.invalidAnswers, `Invalid answer for question ${first.question_id}: ${first.problem}`, problems);
  }
  return selection;
}

/** Back to rule 2.3.2: a key string for single and true/false ("" when unanswered), keys in option order for multiple. */
export function encodeAnswer(type: QuestionType, optionKeys: string[], selected: string[]): AnswerValue {
  if (type !== 'multiple') return selected[0] ?? '';
  return optionKeys.filter((key) => selected.includes(key));
}

const encode = (question: KeyedQuestion, selected: string[]): AnswerValue => encodeAnswer(question.type, question.keys, selected);

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
    const selected = selection.get(question.id) ?? [];
    const is_correct = isExactSet(selected, question.answer);
    if (is_correct) correct++;
    return { question_id: question.id, is_correct, user_answer: encode(question, selected), correct_answer: encode(question, question.answer) };
  });
  return { detail, correct };
}

/**
 * total_score × correct / question_count, rounded half up to two decimals. Done in integers (hundredths) so that
 * e.g. 100 × 2/3 is 66.67 and 5 × 1/8 is 0.63 exactly, with no binary floating-point drift.
 */
export function scoreOf(totalScore: number, correct: number, questionCount: number): number {
  if (questionCount <= 0) return 0;
  const hundredthsTimesCount = totalScore * correct * 100;
  return Math.floor((2 * hundredthsTimesCount + questionCount) / (2 * questionCount)) / 100;
}
