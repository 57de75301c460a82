import type { Db } from '../db/knex.js';
import type { Question, QuestionOption } from '../../contract/exams.js';
import { notFound, validationFailed } from '../http/errors.js';
import type { QuestionFilter, QuestionInput } from './exams.schema.js';
import {
  findQuestionRow,
  insertQuestionRow,
  listQuestionRows,
  toQuestion,
  updateQuestionRow,
  type QuestionContent,
} from './questions.repository.js';

export const TRUE_FALSE_OPTIONS: QuestionOption[] = [
  { key: 'true', text: 'True' },
  { key: 'false', text: 'False' },
];

const isTrueFalsePair = (options: QuestionOption[]): boolean =>
  options.length === 2 && options.some((o) => o.key === 'true') && options.some((o) => o.key === 'false');

interface Issue {
  path: string;
  message: string;
}

/** The rules of a well-formed question beyond field types; empty when it is valid. */
export function questionIssues(q: Pick<QuestionContent, 'type' | 'options' | 'answer'>): Issue[] {
  const issues: Issue[] = [];
  const keys = q.options.map((o) => o.key);
  if (q.options.length < 2) issues.push({ path: 'options', message: 'at least two options are required' });
  const repeated = keys.filter((key, i) => keys.indexOf(key) !== i);
  if (repeated.length) issues.push({ path: 'options', message: `duplicate option key(s): ${[...new Set(repeated)].join(', ')}` });
  if (q.type === 'true_false' && !isTrueFalsePair(q.options)) {
    issues.push({ path: 'options', message: 'true_false options must be exactly the keys "true" and "false"' });
  }
  const unknown = q.answer.filter((key) => !keys.includes(key));
  if (unknown.length) issues.push({ path: 'answer', message: `answer key(s) not among the options: ${unknown.join(', ')}` });
  if (new Set(q.answer).size !== q.answer.length) issues.push({ path: 'answer', message: 'an answer key is repeated' });
  if (q.type !== 'multiple' && q.answer.length !== 1) issues.push({ path: 'answer', message: `${q.type} questions have exactly one answer` });
  return issues;
}

async function checkQuestion(db: Db, q: QuestionContent): Promise<void> {
  const issues = questionIssues(q);
  if (q.course_id !== null && !(await db('courses').where({ id: q.course_id }).first('id'))) {
    issues.push({ path: 'course_id', message: `course ${q.course_id} does not exist` });
  }
  if (issues.length) throw validationFailed(`Invalid ${issues[0]!.path}: ${issues[0]!.message}`, issues);
}

/** The stored question with the given fields applied; true_false questions get the standard options when none are given. */
function merge(base: QuestionContent, input: QuestionInput): QuestionContent {
  const merged: QuestionContent = {
    domain: input.domain ?? base.domain,
    course_id: input.course_id === undefined ? base.course_id : input.course_id,
    type: input.type ?? base.type,
    stem: input.stem ?? base.stem,
    options: input.options ?? base.options,
    answer: input.answer ?? base.answer,
    explanation: input.explanation ?? base.explanation,
    status: input.status ?? base.status,
  };
  if (merged.type === 'true_false' && !input.options && !isTrueFalsePair(merged.options)) merged.options = TRUE_FALSE_OPTIONS;
  return merged;
}

const EMPTY: QuestionContent = { domain: '', course_id: null, type: 'single', stem: '', options: [], answer: [], explanation: '', status: 'active' };

export const listQuestions = (db: Db, filter: QuestionFilter): Promise<Question[]> => listQuestionRows(db, filter);

export async function getQuestion(db: Db, id: number): Promise<Question> {
  const row = await findQuestionRow(db, id);
  if (!row) throw notFound('Question');
  return toQuestion(row);
}

/** Validates and stores a new question; usable inside a caller's transaction (knowledge ingestion). */
export async function createQuestion(db: Db, input: QuestionInput): Promise<Question> {
  const content = merge(EMPTY, input);
  await checkQuestion(db, content);
  return getQuestion(db, await insertQuestionRow(db, content));
}

export async function updateQuestion(db: Db, id: number, input: QuestionInput): Promise<Question> {
  const current = await getQuestion(db, id);
  const content = merge(current, input);
  await checkQuestion(db, content);
  await updateQuestionRow(db, id, content);
  return getQuestion(db, id);
}

/** DELETE: the question is disabled, never removed; answers already given to it are still graded. */
export const disableQuestion = (db: Db, id: number): Promise<Question> => updateQuestion(db, id, { status: 'disabled' });
