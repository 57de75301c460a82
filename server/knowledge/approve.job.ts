// Knowledge ingestion (approving a pending source) as a job of the job queue (server/jobs/): POST
// /api/knowledge/audit/:id still answers with the counts, but the ingestion runs on whichever node claims the job.
// It is one transaction (products and questions upserted, chunks replaced), so a run cut short leaves nothing; a run
// taken up after its first one committed finds the source approved by the same reviewer and answers as it did.
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { KnowledgeApproveResult } from '../../contract/knowledge.js';
import type { JobQueue } from '../jobs/queue.js';
import type { Storage } from '../storage/index.js';
import { approveSource } from './knowledge.service.js';
import { findSourceRow } from './sources.repository.js';

const JOB = 'knowledge.approve';
const CONCURRENCY = 2;
const RETRY_LIMIT = 2;

interface ApproveJob {
  source_id: number;
  reviewer_id: number;
}

/** What an earlier run of this job committed, if it did (its warnings went with that run's answer). */
async function approvedBefore(db: Knex, { source_id, reviewer_id }: ApproveJob): Promise<KnowledgeApproveResult | undefined> {
  const row = await findSourceRow(db, source_id);
  if (row?.status !== 'approved' || Number(row.reviewed_by) !== reviewer_id) return undefined;
  return { status: 'approved', source_id, products: Number(row.products_count), chunks: Number(row.chunks_count), questions: Number(row.questions_count) };
}

/** Registers the kind; the returned function approves one source and resolves with what was ingested. */
export function approveJobs(db: Knex, knowledgeStorage: Storage, jobs: JobQueue, leaseSeconds: number): (sourceId: number, reviewerId: number, signal: AbortSignal) => Promise<KnowledgeApproveResult> {
  jobs.register<ApproveJob, KnowledgeApproveResult>({
    name: JOB,
    retryLimit: RETRY_LIMIT,
    leaseSeconds,
    concurrency: CONCURRENCY,
    run: async (payload, job) => (job.attempt > 0 && (await approvedBefore(db, payload))) || approveSource(db, knowledgeStorage, payload.source_id, payload.reviewer_id),
  });
  return (sourceId, reviewerId, signal) =>
    jobs.run<ApproveJob, KnowledgeApproveResult>(JOB, `${sourceId}-${crypto.randomUUID()}`, { source_id: sourceId, reviewer_id: reviewerId }, { signal });
}
