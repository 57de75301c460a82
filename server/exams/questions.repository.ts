import type { Db } from '../db/knex.js';
import type { Question, QuestionOption, QuestionStatus, QuestionType } from '../../contract/exams.js';
import { parseJson, toNullableNumber } from '../db/rows.js';
import { now } from '../db/time.js';
import { searchAndPage } from '../db/paginate.js';
import type { QuestionFilter } from './exams.schema.js';
import { recordQuestionVersions } from '../sync/versions.js';
import { reviewQueueChanged } from '../review/queue-cache.js';

export interface QuestionRow {
  id: number;
  domain: string;
  course_id: number | null;
  type: QuestionType;
  stem: string;
  options: string;
  answer: string;
  explanation: string;
  status: QuestionStatus;
  version: number;
  created_at: string;
  updated_at: string;
}

/** Everything of a question but its identity and timestamps. */
export type QuestionContent = Omit<Question, 'id' | 'version' | 'created_at' | 'updated_at'>;

export const toQuestion = (r: QuestionRow): Question => ({
  id: Number(r.id),
  domain: r.domain,
  course_id: toNullableNumber(r.course_id),
  type: r.type,
  stem: r.stem,
  options: parseJson<QuestionOption[]>(r.options, []),
  answer: parseJson<string[]>(r.answer, []),
  explanation: r.explanation,
  status: r.status,
  version: Number(r.version),
  created_at: r.created_at,
  updated_at: r.updated_at,
});

const toRow = (q: QuestionContent) => ({
  domain: q.domain,
  course_id: q.course_id,
  type: q.type,
  stem: q.stem,
  options: JSON.stringify(q.options),
  answer: JSON.stringify(q.answer),
  explanation: q.explanation,
  status: q.status,
});

export async function listQuestionRows(db: Db, filter: QuestionFilter): Promise<Question[]> {
  const query = db<QuestionRow>('questions').orderBy('id');
  const status = filter.status ?? 'active';
  if (status !== 'all') query.where('status', status);
  if (filter.domain) query.where('domain', filter.domain);
  if (filter.type) query.where('type', filter.type);
  if (filter.course_id) query.where('course_id', filter.course_id);
  return (await searchAndPage(query, ['stem'], filter)).map(toQuestion);
}

/** Every domain of the bank with its active and disabled question counts, by name. */
export async function domainCounts(db: Db): Promise<{ domain: string; active: number; disabled: number }[]> {
  const rows = (await db('questions').groupBy('domain', 'status').select('domain', 'status').count({ count: '*' }).orderBy('domain')) as { domain: string; status: QuestionStatus; count: unknown }[];
  const byDomain = new Map<string, { domain: string; active: number; disabled: number }>();
  for (const row of rows) {
    const entry = byDomain.get(row.domain) ?? { domain: row.domain, active: 0, disabled: 0 };
    entry[row.status] = Number(row.count);
    byDomain.set(row.domain, entry);
  }
  return [...byDomain.values()];
}

export const findQuestionRow = (db: Db, id: number): Promise<QuestionRow | undefined> => db<QuestionRow>('questions').where({ id }).first();

export async function insertQuestionRow(db: Db, q: QuestionContent): Promise<number> {
  const stamp = now();
  const [row] = await db('questions').insert({ ...toRow(q), created_at: stamp, updated_at: stamp }).returning('id');
  const id = Number((row as { id: number }).id);
  await recordQuestionVersions(db, [id]);
  return id;
}

/** Every edit is a new version (kept in question_versions, for re-grading records drawn from the older one). */
export async function updateQuestionRow(db: Db, id: number, q: QuestionContent): Promise<void> {
  await db('questions').where({ id }).update({ ...toRow(q), version: db.raw('version + 1'), updated_at: now() });
  await recordQuestionVersions(db, [id]);
  reviewQueueChanged(db);
}

/** Up to `count` active questions of the domain (all of them when it has fewer): a random draw in random order, or the first ones by id. */
export function drawQuestionRows(db: Db, domain: string, count: number, randomize: boolean): Promise<QuestionRow[]> {
  const query = db<QuestionRow>('questions').where({ domain, status: 'active' }).limit(count);
  return randomize ? query.orderByRaw('random()') : query.orderBy('id');
}

/** Active questions per domain, for the paper views and the start check. */
export async function activeQuestionCounts(db: Db, domains?: string[]): Promise<Map<string, number>> {
  const query = db('questions').where({ status: 'active' }).groupBy('domain').select('domain').count({ count: '*' });
  if (domains) query.whereIn('domain', domains);
  const rows = (await query) as { domain: string; count: unknown }[];
  return new Map(rows.map((r) => [r.domain, Number(r.count)]));
}

/** Questions by id whatever their status (grading and review use disabled ones too). */
export async function questionsByIds(db: Db, ids: number[]): Promise<Map<number, Question>> {
  const map = new Map<number, Question>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db<QuestionRow>('questions').whereIn('id', ids.slice(i, i + 500));
    for (const row of rows) map.set(Number(row.id), toQuestion(row));
  }
  return map;
}
