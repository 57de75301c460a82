import type { Knex } from 'knex';
import type { Db } from '../db/knex.js';
import { paginate } from '../db/paginate.js';
import { whereContains } from '../db/contains.js';
import type { Page } from '../../contract/envelope.js';
import type { AnswerDetail, AnswerValue, ExamRecord } from '../../contract/exams.js';
import { parseJson, toBool, toNullableNumber, toNumber } from '../db/rows.js';
import type { RecordFilter } from './exams.schema.js';
import { insertJsonRows, type Columns } from '../db/json-rows.js';
import { newGid } from '../db/gid.js';

/** `gid` is given for a record pushed by a branch (it keeps the branch's); otherwise a new one is made. */
export type NewRecord = Omit<ExamRecord, 'id' | 'username' | 'full_name' | 'department' | 'certificate_id'> & { detail: AnswerDetail[]; gid?: string };

/** Stored as compact tuples [question_id, 1|0, user answer, correct answer]. */
type DetailTuple = [number, 0 | 1, AnswerValue, AnswerValue];
const packDetail = (detail: AnswerDetail[]): string =>
  JSON.stringify(detail.map((d): DetailTuple => [d.question_id, d.is_correct ? 1 : 0, d.user_answer, d.correct_answer]));
export const unpackDetail = (json: string): AnswerDetail[] =>
  parseJson<DetailTuple[]>(json, []).map(([question_id, correct, user_answer, correct_answer]) => ({ question_id, is_correct: correct === 1, user_answer, correct_answer }));

type NewRecordRow = Omit<NewRecord, 'detail' | 'gid'> & { detail: string; gid: string };

const RECORD_COLUMNS: Columns<NewRecordRow> = [
  ['session_id', 'text'], ['paper_id', 'integer'], ['user_id', 'integer'], ['exam_name', 'text'], ['score', 'real'], ['total_score', 'integer'],
  ['pass_score', 'integer'], ['passed', 'boolean'], ['correct_count', 'integer'], ['wrong_count', 'integer'], ['question_count', 'integer'],
  ['time_spent_sec', 'integer'], ['late', 'boolean'], ['leave_count', 'integer'], ['detail', 'text'], ['started_at', 'text'], ['submitted_at', 'text'], ['gid', 'text'],
];

/** Inserts the records in one statement; returns the new record id per session id. */
export async function insertRecords(db: Db, records: NewRecord[]): Promise<Map<string, number>> {
  const rows = records.map((r): NewRecordRow => ({ ...r, detail: packDetail(r.detail), gid: r.gid ?? newGid() }));
  const inserted = await insertJsonRows<NewRecordRow, { id: number; session_id: string }>(db, 'exam_records', RECORD_COLUMNS, rows, 'RETURNING id, session_id');
  return new Map(inserted.map((row) => [row.session_id, Number(row.id)]));
}

type RecordRow = Omit<NewRecord, 'detail' | 'passed' | 'late'> & {
  id: number;
  passed: boolean | number;
  late: boolean | number;
  detail: string;
  username: string;
  full_name: string;
  department: string;
  certificate_id: number | null;
};

export type StoredRecord = ExamRecord & { detail: AnswerDetail[] };

const toRecord = (r: RecordRow): ExamRecord => ({
  id: Number(r.id),
  session_id: r.session_id,
  paper_id: Number(r.paper_id),
  user_id: Number(r.user_id),
  username: r.username,
  full_name: r.full_name,
  department: r.department,
  exam_name: r.exam_name,
  score: toNumber(r.score),
  total_score: toNumber(r.total_score),
  pass_score: toNumber(r.pass_score),
  passed: toBool(r.passed),
  correct_count: toNumber(r.correct_count),
  wrong_count: toNumber(r.wrong_count),
  question_count: toNumber(r.question_count),
  time_spent_sec: toNumber(r.time_spent_sec),
  late: toBool(r.late),
  leave_count: toNumber(r.leave_count),
  started_at: r.started_at,
  submitted_at: r.submitted_at,
  certificate_id: toNullableNumber(r.certificate_id),
});

const SUMMARY_COLUMNS = [
  'r.id', 'r.session_id', 'r.paper_id', 'r.user_id', 'r.exam_name', 'r.score', 'r.total_score', 'r.pass_score', 'r.passed', 'r.correct_count',
  'r.wrong_count', 'r.question_count', 'r.time_spent_sec', 'r.late', 'r.leave_count', 'r.started_at', 'r.submitted_at',
  'u.username', 'u.full_name', 'u.department', 'c.id as certificate_id',
];

const NEWEST_FIRST = [{ column: 'r.submitted_at', order: 'desc' as const }, { column: 'r.id', order: 'desc' as const }];

/** What selects records, without paging (the list, the charts, the export). */
export type RecordSelection = Omit<RecordFilter, 'page' | 'size'>;

const recordsWithOwner = (db: Db) =>
  db('exam_records as r').join('users as u', 'u.id', 'r.user_id').leftJoin('certificates as c', 'c.record_id', 'r.id');

/** The record filters on a query over `exam_records as r` joined with `users as u`. */
export function whereRecordMatches(base: Knex.QueryBuilder, filter: RecordSelection): Knex.QueryBuilder {
  if (filter.user_id) base.where('r.user_id', filter.user_id);
  const paperId = filter.paper_id ?? filter.exam_id;
  if (paperId) base.where('r.paper_id', paperId);
  if (filter.passed !== undefined) base.where('r.passed', filter.passed);
  if (filter.username !== undefined) base.where('u.username', filter.username);
  if (filter.department) base.where('u.department', filter.department);
  if (filter.from) base.where('r.submitted_at', '>=', filter.from);
  if (filter.to) base.where('r.submitted_at', '<', filter.to);
  if (filter.exam_name) whereContains(base, ['r.exam_name'], filter.exam_name);
  if (filter.keyword) whereContains(base, ['u.username', 'u.full_name', 'r.exam_name'], filter.keyword);
  return base;
}

/** Newest first, a page of them with the certificate of each. */
export function recordRowsNewestFirst(db: Db, filter: RecordSelection, paging: { page: number; size: number }): Promise<ExamRecord[]> {
  return whereRecordMatches(recordsWithOwner(db), filter)
    .select(SUMMARY_COLUMNS)
    .orderBy(NEWEST_FIRST)
    .limit(paging.size)
    .offset((paging.page - 1) * paging.size)
    .then((rows: RecordRow[]) => rows.map(toRecord));
}

/** Newest first. `user_id` set = that user's records only (an employee's own view); the text filters narrow further. */
export async function listRecords(db: Db, filter: RecordFilter): Promise<Page<ExamRecord>> {
  const base = whereRecordMatches(recordsWithOwner(db), filter);
  return paginate(base, filter, (q) => q.select(SUMMARY_COLUMNS).orderBy(NEWEST_FIRST), (row: RecordRow) => toRecord(row));
}

/** One record with its graded answers, by record id or by session id. */
export async function findRecord(db: Db, key: { id: number } | { session_id: string }): Promise<StoredRecord | undefined> {
  const where = 'id' in key ? { 'r.id': key.id } : { 'r.session_id': key.session_id };
  const row = (await recordsWithOwner(db).where(where).select([...SUMMARY_COLUMNS, 'r.detail']).first()) as RecordRow | undefined;
  return row && { ...toRecord(row), detail: unpackDetail(row.detail) };
}
