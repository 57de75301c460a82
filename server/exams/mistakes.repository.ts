import type { Db } from '../db/knex.js';
import { paginate } from '../db/paginate.js';
import type { Page } from '../../contract/envelope.js';
import type { AnswerValue, MistakeEntry, QuestionOption, QuestionStatus, QuestionType, SessionKind } from '../../contract/exams.js';
import { parseJson, toBool, toNumber } from '../db/rows.js';
import type { MistakeFilter, RetryInput } from './exams.schema.js';
import { encodeAnswer } from './grading.js';
import { jsonRows, type Columns } from '../db/json-rows.js';
import { queueMistakeDeletion } from '../sync/branch/deletions.js';
import type { User } from '../../contract/users.js';
import { hiddenQuestionIds } from './answer-visibility.js';

export interface WrongAnswer {
  user_id: number;
  question_id: number;
  user_answer: AnswerValue;
  source: SessionKind;
  at: string;
}

interface WrongRow {
  user_id: number;
  question_id: number;
  wrong_count: number;
  last_wrong_answer: string;
  at: string;
  last_source: SessionKind;
}

/** One row per user and question: a statement may not upsert the same row twice (PostgreSQL refuses). Later answers win. */
function mergeWrongAnswers(wrongs: WrongAnswer[]): WrongRow[] {
  const rows = new Map<string, { wrong: WrongAnswer; count: number }>();
  for (const wrong of wrongs) {
    const key = `${wrong.user_id}/${wrong.question_id}`;
    rows.set(key, { wrong, count: (rows.get(key)?.count ?? 0) + 1 });
  }
  return [...rows.values()].map(({ wrong, count }) => ({
    user_id: wrong.user_id,
    question_id: wrong.question_id,
    wrong_count: count,
    last_wrong_answer: JSON.stringify(wrong.user_answer),
    at: wrong.at,
    last_source: wrong.source,
  }));
}

const WRONG_COLUMNS: Columns<WrongRow> = [
  ['user_id', 'integer'], ['question_id', 'integer'], ['wrong_count', 'integer'], ['last_wrong_answer', 'text'], ['at', 'text'], ['last_source', 'text'],
];

/**
 * Adds wrong answers to the mistake books in one upsert: a new entry starts with its count, a known one counts up,
 * takes the latest wrong answer and is no longer mastered.
 */
export async function recordMistakes(db: Db, wrongs: WrongAnswer[]): Promise<void> {
  const rows = mergeWrongAnswers(wrongs);
  if (!rows.length) return;
  await db.raw(
    `INSERT INTO exam_mistakes (user_id, question_id, wrong_count, last_wrong_answer, last_wrong_at, last_source, mastered, mastered_at, created_at, updated_at)
     SELECT v.user_id, v.question_id, v.wrong_count, v.last_wrong_answer, v.at, v.last_source, ?, NULL, v.at, v.at FROM (?) AS v WHERE true
     ON CONFLICT (user_id, question_id) DO UPDATE SET wrong_count = exam_mistakes.wrong_count + excluded.wrong_count,
       last_wrong_answer = excluded.last_wrong_answer, last_wrong_at = excluded.last_wrong_at, last_source = excluded.last_source,
       mastered = ?, mastered_at = NULL, updated_at = excluded.updated_at`,
    [false, jsonRows(db, WRONG_COLUMNS, rows), false],
  );
}

export async function markMastered(db: Db, userId: number, questionIds: number[], at: string): Promise<void> {
  if (!questionIds.length) return;
  await db('exam_mistakes')
    .where({ user_id: userId, mastered: false })
    .whereIn('question_id', questionIds)
    .update({ mastered: true, mastered_at: at, updated_at: at });
}

/**
 * Question ids a retry may issue: unmastered entries whose question is still active and whose key is not hidden from
 * the person (`hidden`, the retry's result shows it), most often missed first.
 */
export async function unmasteredQuestionIds(db: Db, userId: number, input: RetryInput, hidden: Set<number> = new Set()): Promise<number[]> {
  const query = db('exam_mistakes as m')
    .join('questions as q', 'q.id', 'm.question_id')
    .where({ 'm.user_id': userId, 'm.mastered': false, 'q.status': 'active' })
    .orderBy([{ column: 'm.wrong_count', order: 'desc' }, { column: 'm.last_wrong_at', order: 'desc' }, { column: 'm.id', order: 'desc' }])
    .limit(input.limit)
    .pluck('m.question_id');
  if (input.domain) query.where('q.domain', input.domain);
  if (input.question_ids) query.whereIn('m.question_id', input.question_ids);
  if (hidden.size) query.whereNotIn('m.question_id', [...hidden]);
  return (await query).map(Number);
}

interface MistakeRow {
  id: number;
  question_id: number;
  wrong_count: number;
  last_wrong_answer: string;
  last_wrong_at: string;
  last_source: SessionKind;
  mastered: boolean | number;
  mastered_at: string | null;
  created_at: string;
  domain: string;
  type: QuestionType;
  stem: string;
  options: string;
  answer: string;
  explanation: string;
  question_status: QuestionStatus;
}

/** An entry; the key of a question in `hidden` (see hiddenQuestionIds) is left empty. */
const toMistake = (r: MistakeRow, hidden: Set<number>): MistakeEntry => {
  const options = parseJson<QuestionOption[]>(r.options, []);
  const keyHidden = hidden.has(Number(r.question_id));
  return {
    id: Number(r.id),
    question_id: Number(r.question_id),
    domain: r.domain,
    type: r.type,
    stem: r.stem,
    options,
    correct_answer: keyHidden ? (r.type === 'multiple' ? [] : '') : encodeAnswer(r.type, options.map((o) => o.key), parseJson<string[]>(r.answer, [])),
    explanation: keyHidden ? '' : r.explanation,
    question_status: r.question_status,
    wrong_count: toNumber(r.wrong_count),
    last_wrong_answer: parseJson<AnswerValue>(r.last_wrong_answer, ''),
    last_wrong_at: r.last_wrong_at,
    last_source: r.last_source,
    mastered: toBool(r.mastered),
    mastered_at: r.mastered_at,
    created_at: r.created_at,
  };
};

export async function listMistakes(db: Db, user: User, filter: MistakeFilter): Promise<Page<MistakeEntry>> {
  const userId = user.id;
  const hidden = await hiddenQuestionIds(db, user, userId);
  const base = db('exam_mistakes as m').join('questions as q', 'q.id', 'm.question_id').where('m.user_id', userId);
  if (filter.mastered === 'true' || filter.mastered === 'false') base.where('m.mastered', filter.mastered === 'true');
  if (filter.domain) base.where('q.domain', filter.domain);
  const select = (q: ReturnType<Db>) =>
    q
      .select('m.*', 'q.domain', 'q.type', 'q.stem', 'q.options', 'q.answer', 'q.explanation', 'q.status as question_status')
      .orderBy([{ column: 'm.mastered', order: 'asc' }, { column: 'm.last_wrong_at', order: 'desc' }, { column: 'm.id', order: 'desc' }]);
  return paginate(base, filter, select, (row: MistakeRow) => toMistake(row, hidden));
}

/** Removes one entry of the user's book; false when there is no such entry of theirs. */
export async function deleteMistake(db: Db, userId: number, id: number): Promise<boolean> {
  return db.transaction(async (trx) => {
    await queueMistakeDeletion(trx, userId, id);
    return Number(await trx('exam_mistakes').where({ id, user_id: userId }).delete()) === 1;
  });
}
