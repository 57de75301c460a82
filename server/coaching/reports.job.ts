// Coaching analysis as a job of the job queue (server/jobs/): POST /api/coaching/calls still answers with the report,
// but the analysis runs on whichever node claims the job, and a node that dies mid-way hands it to another. The
// request's key is stored on the report, so a run taken up again never makes a second report.
import crypto from 'node:crypto';
import type { Db } from '../db/knex.js';
import type { JobQueue } from '../jobs/queue.js';
import type { CallInput } from './coaching.schema.js';
import { createReport, type Reader } from './reports.service.js';

const JOB = 'coaching.report';
/** Several reps may have calls analysed at once: each waits on the chat model, not on this node's CPU. */
const CONCURRENCY = 4;
const RETRY_LIMIT = 2;

interface ReportJob {
  key: string;
  reader: Reader;
  input: CallInput;
}

/** Registers the kind; the returned function runs one analysis and resolves with the new report's id. */
export function reportJobs(db: Db, jobs: JobQueue, leaseSeconds: number): (reader: Reader, input: CallInput, signal: AbortSignal) => Promise<number> {
  jobs.register<ReportJob, number>({
    name: JOB,
    retryLimit: RETRY_LIMIT,
    leaseSeconds,
    concurrency: CONCURRENCY,
    run: ({ key, reader, input }, job) => createReport(db, reader, input, { signal: job.signal, jobKey: key }),
  });
  return (reader, input, signal) => {
    const key = crypto.randomUUID();
    return jobs.run<ReportJob, number>(JOB, key, { key, reader: { id: reader.id, role: reader.role }, input }, { signal });
  };
}
