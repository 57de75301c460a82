import type { Knex } from 'knex';
import { coalesce } from './coalesce.js';
import { submitBatch, type SubmitOutcome, type SubmitRequest } from './submit.service.js';
import { deriveReviewEventsSoon, reviewDerivationIdle } from '../review/pending-events.js';

/**
 * The database side of submit, one per app: concurrent submits are served together, each batch in one transaction
 * with a fixed number of statements (one SELECT … IN for the sessions, then multi-row writes). The batch's review
 * events are derived after its commit (review/pending-events.ts); what a kill left pending is derived at the start.
 */
export interface SubmitPipeline {
  submit(request: SubmitRequest): Promise<SubmitOutcome>;
  idle(): Promise<void>;
}

export function submitPipeline(db: Knex): SubmitPipeline {
  const batches = coalesce(async (requests: SubmitRequest[]) => {
    const outcomes = await db.transaction((trx) => submitBatch(trx, requests));
    deriveReviewEventsSoon(db);
    return outcomes;
  });
  deriveReviewEventsSoon(db);
  return {
    submit: batches.call,
    idle: async () => {
      await batches.idle();
      await reviewDerivationIdle(db);
    },
  };
}
