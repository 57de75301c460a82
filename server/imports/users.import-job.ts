// A users import of more than USER_IMPORT_JOB_ROWS rows runs as a job of the job queue (server/jobs/): the request
// answers 202 {job_id} and the import_jobs row tells any node its status, progress and, at the end, its report. The
// file's rows wait in that row, so whichever node claims the job can run it. The write is one transaction that also
// marks the job done, so a run taken up again after a node died either finds it done or starts from nothing.
import type { Knex } from 'knex';
import type { JobQueue } from '../jobs/queue.js';
import type { UserImportJob, UserImportReport } from '../../contract/imports.js';
import { isPostgres } from '../db/knex.js';
import { notFound } from '../http/errors.js';
import { refusalOf } from '../jobs/outcome.js';
import { BadCell, type SourceRow } from './xlsx-rows.js';
import { checkUsers, writeUsers } from './users.import.js';
import { withClippedErrors } from './report-values.js';
import { finishImportJob, findImportJob, insertImportJob, runningImportJobIds, saveProgress, claimCredentials } from './import-jobs.repository.js';
import { openCredentials, sealCredentials } from './sealed-credentials.js';

const JOB = 'imports.users';
const KIND = 'users';
const RETRY_LIMIT = 2;
const LEASE_SECONDS = 15 * 60;

interface UsersImportPayload {
  job_id: number;
}

/** Rows as JSON; a BadCell keeps its kind (the check reports it as today). */
const encodeRows = (rows: SourceRow[]): string =>
  JSON.stringify(rows, (_key, value: unknown) => (value instanceof BadCell ? { $bad_cell: value.kind, shown: value.shown } : value));

const decodeRows = (source: string): SourceRow[] =>
  JSON.parse(source, (_key, value: unknown) => {
    const bad = value as { $bad_cell?: BadCell['kind']; shown?: string } | null;
    return bad && typeof bad === 'object' && bad.$bad_cell ? new BadCell(bad.$bad_cell, bad.shown ?? '') : value;
  }) as SourceRow[];

export interface UsersImportJobs {
  /** Records the job and queues it; resolves with its id. */
  start(rows: SourceRow[], adminId: number): Promise<number>;
  /** The job as the reader may see it: the credentials to the admin who started it, the first time only. */
  view(id: number, readerId: number): Promise<UserImportJob>;
}

export function usersImportJobs(db: Knex, jobs: JobQueue, credentialsSecret: string, log: (err: unknown) => void): UsersImportJobs {
  async function importRows(jobId: number, attempt: number, signal: AbortSignal): Promise<void> {
    const job = await findImportJob(db, jobId, KIND);
    if (!job || job.status !== 'running' || !job.source) return;
    try {
      const checked = await checkUsers(db, decodeRows(job.source), false);
      if (checked.report.errors.length) {
        const count = checked.report.errors.length;
        await finishImportJob(db, jobId, { status: 'failed', report: withClippedErrors(checked.report), error: `${count} invalid row(s), nothing imported` });
        return;
      }
      if (signal.aborted) throw signal.reason;
      // On SQLite the transaction holds the only connection: progress is seen when it commits. On PostgreSQL it is
      // written beside the transaction, so every node's poll sees it grow.
      const progress = isPostgres(db) ? (written: number) => saveProgress(db, jobId, written) : undefined;
      await writeUsers(db, checked, {
        progress,
        finish: async (trx, report) => {
          const { credentials, ...rest } = withClippedErrors(report);
          const stored: UserImportReport = { ...rest, credentials: [] };
          await finishImportJob(trx, jobId, { status: 'done', processed: job.total, report: stored, credentials: sealCredentials(credentialsSecret, credentials) });
        },
      });
    } catch (err) {
      if (signal.aborted) throw err; // stopped or cancelled: taken up again, nothing was written
      const refused = refusalOf(err);
      const last = attempt >= RETRY_LIMIT;
      if (!refused && !last) throw err;
      log(err);
      await finishImportJob(db, jobId, { status: 'failed', report: null, error: refused?.message ?? 'The import failed; nothing was imported' });
    }
  }

  jobs.register<UsersImportPayload>({
    name: JOB,
    retryLimit: RETRY_LIMIT,
    leaseSeconds: LEASE_SECONDS,
    run: ({ job_id }, job) => importRows(job_id, job.attempt, job.signal),
    unfinished: async () => (await runningImportJobIds(db, KIND)).map((id) => ({ key: String(id), payload: { job_id: id } })),
  });

  return {
    async start(rows, adminId) {
      const id = await insertImportJob(db, { kind: KIND, total: rows.length, created_by: adminId, source: encodeRows(rows) });
      try {
        await jobs.enqueue<UsersImportPayload>(JOB, String(id), { job_id: id });
      } catch (err) {
        await finishImportJob(db, id, { status: 'failed', report: null, error: 'The import could not be queued; nothing was imported' });
        throw err;
      }
      return id;
    },
    async view(id, readerId) {
      const job = await findImportJob(db, id, KIND);
      if (!job) throw notFound('Import job');
      const report = job.report ? (JSON.parse(job.report) as UserImportReport) : null;
      if (report && job.status === 'done' && job.created_by === readerId && job.credentials) {
        // Opened before they are claimed: a row that cannot be opened (another install's key) keeps them.
        const credentials = openCredentials(credentialsSecret, job.credentials);
        if (await claimCredentials(db, id, job.credentials)) report.credentials = credentials;
      }
      return { id: job.id, status: job.status, processed: job.processed, total: job.total, report, error: job.error };
    },
  };
}
