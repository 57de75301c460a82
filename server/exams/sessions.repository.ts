import crypto from 'node:crypto';
import type { Db } from '../db/knex.js';
import { lockForTransaction } from '../db/locks.js';
import { jsonRows, returnedRows, type Columns } from '../db/json-rows.js';
import type { OpenSession, SessionKind } from '../../contract/exams.js';
import { parseJson, toBool, toNullableNumber, toNumber } from '../db/rows.js';
import type { KeyedQuestion } from './grading.js';

export interface ExamSession {
  id: string;
  kind: SessionKind;
  paper_id: number | null;
  user_id: number;
  exam_name: string;
  total_score: number;
  pass_score: number;
  duration_minutes: number;
  questions: KeyedQuestion[];
  started_at: string;
  deadline_at: string;
  saved_answers: Record<string, unknown>;
  saved_at: string | null;
  submitted_at: string | null;
  result: string | null;
}

export type SessionRow = Omit<ExamSession, 'questions' | 'saved_answers'> & {
  questions: string;
  saved_answers: string | null;
  score: number | null;
  passed: boolean | number | null;
};

export type NewSession = Pick<ExamSession, 'kind' | 'paper_id' | 'user_id' | 'exam_name' | 'total_score' | 'pass_score' | 'duration_minutes' | 'questions'>;

/**
 * Stored as compact tuples [id, type, option keys, correct keys, version, shown order]: the row stays within one
 * database page. The shown order is there only when the session shuffled that question's options.
 */
type QuestionTuple = [number, KeyedQuestion['type'], string[], string[], (number | null)?, string[]?];
const packQuestion = (q: KeyedQuestion): QuestionTuple => {
  if (q.shown) return [q.id, q.type, q.keys, q.answer, q.version ?? null, q.shown];
  return q.version === undefined ? [q.id, q.type, q.keys, q.answer] : [q.id, q.type, q.keys, q.answer, q.version];
};
export const packQuestions = (questions: KeyedQuestion[]): string => JSON.stringify(questions.map(packQuestion));
const unpackQuestions = (json: string): KeyedQuestion[] =>
  parseJson<QuestionTuple[]>(json, []).map(([id, type, keys, answer, version, shown]) => ({
    id,
    type,
    keys,
    answer,
    ...(version === undefined || version === null ? {} : { version }),
    ...(shown ? { shown } : {}),
  }));

const toSession = (r: SessionRow): ExamSession => ({
  id: r.id,
  kind: r.kind,
  paper_id: toNullableNumber(r.paper_id),
  user_id: Number(r.user_id),
  exam_name: r.exam_name,
  total_score: toNumber(r.total_score),
  pass_score: toNumber(r.pass_score),
  duration_minutes: toNumber(r.duration_minutes),
  questions: unpackQuestions(r.questions),
  started_at: r.started_at,
  deadline_at: r.deadline_at,
  saved_answers: parseJson<Record<string, unknown>>(r.saved_answers, {}),
  saved_at: r.saved_at,
  submitted_at: r.submitted_at,
  result: r.result,
});

const ID_COLUMNS: Columns<{ id: string }> = [['id', 'text']];

/** Sessions by id, in the order asked (undefined where there is none). */
export async function findSessions(db: Db, ids: string[]): Promise<(ExamSession | undefined)[]> {
  const wanted = jsonRows(db, ID_COLUMNS, [...new Set(ids)].map((id) => ({ id })));
  const rows = await db<SessionRow>('exam_sessions').whereRaw('id IN (SELECT v.id FROM (?) AS v)', [wanted]);
  const byId = new Map(rows.map((r) => [r.id, toSession(r)]));
  return ids.map((id) => byId.get(id));
}

/**
 * Inserts the session; with maxAttempts, only while the user has started the paper fewer times than that, checked
 * in the same transaction as the insert (null: the attempts are used, even by a start on another node a moment ago).
 */
export async function insertSession(db: Db, session: NewSession, startedAt: Date, maxAttempts?: number | null): Promise<ExamSession | null> {
  const row: SessionRow = {
    ...session,
    id: crypto.randomUUID(),
    questions: packQuestions(session.questions),
    started_at: startedAt.toISOString(),
    deadline_at: new Date(startedAt.getTime() + session.duration_minutes * 60_000).toISOString(),
    saved_answers: null,
    saved_at: null,
    submitted_at: null,
    score: null,
    passed: null,
    result: null,
  };
  if (maxAttempts == null || session.paper_id === null) {
    await db('exam_sessions').insert(row);
    return toSession(row);
  }
  const paperId = session.paper_id;
  return db.transaction(async (trx) => {
    await lockForTransaction(trx, `exam attempts ${session.user_id} ${paperId}`);
    if ((await countStarts(trx, session.user_id, paperId)) >= maxAttempts) return null;
    await trx('exam_sessions').insert(row);
    return toSession(row);
  });
}

/** The session if it exists and belongs to the user; someone else's session is reported exactly like a missing one. */
export async function findOwnSession(db: Db, id: string, userId: number): Promise<ExamSession | undefined> {
  const row = await db<SessionRow>('exam_sessions').where({ id, user_id: userId }).first();
  return row && toSession(row);
}

export interface Consumption {
  id: string;
  submitted_at: string;
  score: number;
  passed: boolean;
  /** The response to replay on a second submit, for sessions that leave no record (self-test, retry). */
  result: string | null;
}

const CONSUMPTION_COLUMNS: Columns<Consumption> = [['id', 'text'], ['submitted_at', 'text'], ['score', 'real'], ['passed', 'boolean'], ['result', 'text']];

/**
 * Marks many sessions submitted in one statement (UPDATE … FROM, on SQLite and PostgreSQL alike), each only if nobody
 * did before; returns the ids this call consumed.
 */
export async function consumeSessions(db: Db, consumptions: Consumption[]): Promise<Set<string>> {
  if (!consumptions.length) return new Set();
  const response = await db.raw(
    `UPDATE exam_sessions SET submitted_at = v.submitted_at, score = v.score, passed = v.passed, result = v.result
     FROM (?) AS v WHERE exam_sessions.id = v.id AND exam_sessions.submitted_at IS NULL
     RETURNING exam_sessions.id`,
    [jsonRows(db, CONSUMPTION_COLUMNS, consumptions)],
  );
  return new Set(returnedRows<{ id: string }>(db, response).map((r) => r.id));
}

export async function saveSessionAnswers(db: Db, id: string, answers: Record<string, unknown>, savedAt: string): Promise<boolean> {
  const changed = await db('exam_sessions').where({ id }).whereNull('submitted_at').update({ saved_answers: JSON.stringify(answers), saved_at: savedAt });
  return Number(changed) === 1;
}

export interface PaperStanding {
  starts: number;
  submitted: number;
  best_score: number | null;
  passed: boolean;
  open: boolean;
  last_submitted_at: string | null;
}

/** The user's attempts per paper: starts, submissions, best score, a pass, and whether a session is still open at `openAfter`. */
export async function standingsOf(db: Db, userId: number, openAfter: string, paperId?: number): Promise<Map<number, PaperStanding>> {
  const query = db('exam_sessions')
    .where({ user_id: userId })
    .whereNotNull('paper_id')
    .groupBy('paper_id')
    .select(
      'paper_id',
      db.raw('count(*) as starts'),
      db.raw('count(submitted_at) as submitted'),
      db.raw('max(score) as best_score'),
      db.raw('max(case when passed then 1 else 0 end) as passed'),
      db.raw('max(case when submitted_at is null and deadline_at > ? then 1 else 0 end) as open', [openAfter]),
      db.raw('max(submitted_at) as last_submitted_at'),
    );
  if (paperId) query.where({ paper_id: paperId });
  const rows = (await query) as Record<string, unknown>[];
  return new Map(
    rows.map((r) => [
      Number(r.paper_id),
      {
        starts: toNumber(r.starts),
        submitted: toNumber(r.submitted),
        best_score: toNullableNumber(r.best_score),
        passed: toBool(r.passed),
        open: toBool(r.open),
        last_submitted_at: (r.last_submitted_at as string | null) ?? null,
      },
    ]),
  );
}

/** The user's latest open session per paper (not submitted, deadline after `openAfter`). */
export async function openSessionsOf(db: Db, userId: number, openAfter: string, paperId?: number): Promise<Map<number, OpenSession>> {
  const query = db<SessionRow>('exam_sessions')
    .where({ user_id: userId })
    .whereNotNull('paper_id')
    .whereNull('submitted_at')
    .where('deadline_at', '>', openAfter)
    .orderBy('started_at')
    .select('id', 'paper_id', 'deadline_at', 'saved_at');
  if (paperId) query.where({ paper_id: paperId });
  const rows = await query;
  // Later starts overwrite earlier ones: the latest open session wins.
  return new Map(rows.map((r) => [Number(r.paper_id), { session_id: r.id, deadline_at: r.deadline_at, saved_at: r.saved_at }]));
}

export async function countStarts(db: Db, userId: number, paperId: number): Promise<number> {
  const row = await db('exam_sessions').where({ user_id: userId, paper_id: paperId }).count({ count: '*' }).first();
  return toNumber(row?.count);
}
