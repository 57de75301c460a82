import type { Db } from '../db/knex.js';
import type { ExamPaper, PaperStatus } from '../../contract/exams.js';
import { toBool, toNullableNumber, toNumber } from '../db/rows.js';
import { now } from '../db/time.js';
import { searchAndPage } from '../db/paginate.js';
import type { PaperFilter } from './exams.schema.js';
import { recordPaperVersions } from '../sync/versions.js';

/** SQLite returns booleans as 0/1. */
export type PaperRow = Omit<ExamPaper, 'randomize' | 'shuffle_options'> & { randomize: boolean | number; shuffle_options: boolean | number; has_audience?: boolean | number };

export type PaperContent = Omit<ExamPaper, 'id' | 'published_at' | 'created_at' | 'updated_at'>;

export const toPaper = (r: PaperRow): ExamPaper => ({
  id: Number(r.id),
  name: r.name,
  type: r.type,
  domain: r.domain,
  question_count: toNumber(r.question_count),
  total_score: toNumber(r.total_score),
  pass_score: toNumber(r.pass_score),
  duration_minutes: toNumber(r.duration_minutes),
  randomize: toBool(r.randomize),
  description: r.description,
  max_attempts: toNullableNumber(r.max_attempts),
  show_answers: r.show_answers ?? 'always',
  opens_at: r.opens_at ?? null,
  closes_at: r.closes_at ?? null,
  shuffle_options: toBool(r.shuffle_options),
  status: r.status,
  published_at: r.published_at,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

export const findPaperRow = (db: Db, id: number): Promise<PaperRow | undefined> => db<PaperRow>('exam_papers').where({ id }).first();

export const listPaperRows = (db: Db, status?: PaperStatus): Promise<PaperRow[]> => {
  const query = db<PaperRow>('exam_papers').orderBy('id', 'desc');
  return status ? query.where({ status }) : query;
};

/** The admin list: newest first, filtered, and one page of it when paging is asked for. */
export function findPaperRows(db: Db, filter: PaperFilter): Promise<PaperRow[]> {
  const query = db<PaperRow>('exam_papers').orderBy('id', 'desc');
  if (filter.status) query.where('status', filter.status);
  if (filter.type) query.where('type', filter.type);
  return searchAndPage(query, ['name'], filter);
}

export async function insertPaperRow(db: Db, paper: PaperContent): Promise<number> {
  const stamp = now();
  const [row] = await db('exam_papers').insert({ ...paper, created_at: stamp, updated_at: stamp }).returning('id');
  const id = Number((row as { id: number }).id);
  await recordPaperVersions(db, [id]);
  return id;
}

/** A change of the total or the pass mark is a new version of the paper (kept in paper_versions, see docs/sync.md). */
export async function updatePaperRow(db: Db, id: number, patch: Partial<PaperContent> & { published_at?: string }): Promise<void> {
  const scoring = patch.total_score !== undefined || patch.pass_score !== undefined;
  await db('exam_papers').where({ id }).update({ ...patch, ...(scoring ? { version: db.raw('version + 1') } : {}), updated_at: now() });
  if (scoring) await recordPaperVersions(db, [id]);
}
