// The import_jobs rows (migration 034): a long import's status, progress and report, readable from any node.
import type { Db } from '../db/knex.js';
import { now } from '../db/time.js';
import type { ImportJobStatus, UserImportReport } from '../../contract/imports.js';

export interface ImportJobRow {
  id: number;
  kind: string;
  status: ImportJobStatus;
  total: number;
  processed: number;
  created_by: number | null;
  source: string | null;
  report: string | null;
  credentials: string | null;
  error: string | null;
}

export async function insertImportJob(db: Db, job: { kind: string; total: number; created_by: number; source: string }): Promise<number> {
  const stamp = now();
  const [row] = await db('import_jobs').insert({ ...job, status: 'running', processed: 0, created_at: stamp, updated_at: stamp }).returning('id');
  return Number(typeof row === 'object' ? (row as { id: number }).id : row);
}

export async function findImportJob(db: Db, id: number, kind: string): Promise<ImportJobRow | undefined> {
  const row = (await db('import_jobs').where({ id, kind }).first()) as ImportJobRow | undefined;
  return row && { ...row, id: Number(row.id), total: Number(row.total), processed: Number(row.processed), created_by: row.created_by === null ? null : Number(row.created_by) };
}

export async function saveProgress(db: Db, id: number, processed: number): Promise<void> {
  await db('import_jobs').where({ id, status: 'running' }).update({ processed, updated_at: now() });
}

/** Ends a running job (a job that already ended stays as it ended); its rows are no longer kept. */
export async function finishImportJob(
  db: Db,
  id: number,
  end: { status: Exclude<ImportJobStatus, 'running'>; processed?: number; report: UserImportReport | null; credentials?: string | null; error?: string | null },
): Promise<void> {
  await db('import_jobs')
    .where({ id, status: 'running' })
    .update({
      status: end.status,
      ...(end.processed === undefined ? {} : { processed: end.processed }),
      report: end.report && JSON.stringify(end.report),
      credentials: end.credentials ?? null,
      error: end.error ?? null,
      source: null,
      updated_at: now(),
    });
}

/** Empties the row's sealed credentials; true for the one caller whose update did it (they are handed out once). */
export async function claimCredentials(db: Db, id: number, sealed: string): Promise<boolean> {
  return (await db('import_jobs').where({ id, credentials: sealed }).update({ credentials: null, updated_at: now() })) === 1;
}

export async function runningImportJobIds(db: Db, kind: string): Promise<number[]> {
  return (await db('import_jobs').where({ kind, status: 'running' }).orderBy('id').pluck('id')).map(Number);
}
