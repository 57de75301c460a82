import type { Db } from '../db/knex.js';
import { paginate } from '../db/paginate.js';
import type { KnowledgeSource, KnowledgeSourceStatus } from '../../contract/knowledge.js';
import type { Page } from '../../contract/envelope.js';
import { toNullableNumber, toNumber } from '../db/rows.js';
import { now } from '../db/time.js';

export interface SourceRow {
  id: number;
  file_path: string;
  title: string;
  domain: string;
  status: KnowledgeSourceStatus;
  reject_reason: string | null;
  content_sha256: string;
  products_count: number;
  chunks_count: number;
  questions_count: number;
  scanned_at: string;
  reviewed_at: string | null;
  reviewed_by: number | null;
  created_at: string;
  updated_at: string;
}

export const toSource = (r: SourceRow): KnowledgeSource => ({
  id: Number(r.id),
  file_path: r.file_path,
  title: r.title,
  domain: r.domain,
  status: r.status,
  reject_reason: r.reject_reason,
  content_sha256: r.content_sha256,
  products: toNumber(r.products_count),
  chunks: toNumber(r.chunks_count),
  questions: toNumber(r.questions_count),
  scanned_at: r.scanned_at,
  reviewed_at: r.reviewed_at,
  reviewed_by: toNullableNumber(r.reviewed_by),
  created_at: r.created_at,
  updated_at: r.updated_at,
});

export const findSourceRow = (db: Db, id: number): Promise<SourceRow | undefined> => db<SourceRow>('knowledge_sources').where({ id }).first();

export const findSourceRowByPath = (db: Db, filePath: string): Promise<SourceRow | undefined> =>
  db<SourceRow>('knowledge_sources').where({ file_path: filePath }).first();

export const allSourceRows = (db: Db): Promise<SourceRow[]> => db<SourceRow>('knowledge_sources').select('*');

/** The file_path of a knowledge source synced from the central server (docs/sync.md): its file is not in this knowledge folder. */
export const CENTRAL_KNOWLEDGE_PREFIX = 'central://';
export const isCentralSource = (row: { file_path: string }): boolean => row.file_path.startsWith(CENTRAL_KNOWLEDGE_PREFIX);

export interface ScannedFile {
  file_path: string;
  title: string;
  domain: string;
  content_sha256: string;
}

export async function insertPendingSource(db: Db, file: ScannedFile): Promise<number> {
  const stamp = now();
  const [row] = await db('knowledge_sources')
    .insert({ ...file, status: 'pending', scanned_at: stamp, created_at: stamp, updated_at: stamp })
    .returning('id');
  return Number((row as { id: number }).id);
}

/** A changed file: pending again, with the previous review and ingestion counts cleared. */
export async function markSourceChanged(db: Db, id: number, file: ScannedFile): Promise<void> {
  const stamp = now();
  await db('knowledge_sources')
    .where({ id })
    .update({ ...file, status: 'pending', reject_reason: null, reviewed_at: null, reviewed_by: null, products_count: 0, chunks_count: 0, questions_count: 0, scanned_at: stamp, updated_at: stamp });
}

export interface Review {
  status: 'approved' | 'rejected';
  reviewed_by: number;
  reject_reason?: string;
  meta?: { title: string; domain: string };
}

/**
 * Moves a pending source to its reviewed status; false when it was no longer pending (reviewed by someone
 * else first). Inside a transaction this also locks the row until the transaction ends.
 */
export async function recordReview(db: Db, id: number, review: Review): Promise<boolean> {
  const stamp = now();
  const changed = await db('knowledge_sources')
    .where({ id, status: 'pending' })
    .update({ ...review.meta, status: review.status, reject_reason: review.reject_reason ?? null, reviewed_by: review.reviewed_by, reviewed_at: stamp, updated_at: stamp });
  return Number(changed) === 1;
}

export async function recordCounts(db: Db, id: number, counts: { products: number; chunks: number; questions: number }): Promise<void> {
  await db('knowledge_sources').where({ id }).update({ products_count: counts.products, chunks_count: counts.chunks, questions_count: counts.questions });
}

export interface SourceFilter {
  /** `all` = every status. */
  status: KnowledgeSourceStatus | 'all';
  page: number;
  size: number;
}

/** Most recently scanned first. */
export async function listSources(db: Db, filter: SourceFilter): Promise<Page<KnowledgeSource>> {
  const base = db<SourceRow>('knowledge_sources');
  if (filter.status !== 'all') base.where('status', filter.status);
  const order = [{ column: 'scanned_at', order: 'desc' as const }, { column: 'id', order: 'desc' as const }];
  return paginate(base, filter, (q) => q.orderBy(order), (row: SourceRow) => toSource(row));
}
