import type { Knex } from 'knex';
import { coalesce } from './coalesce.js';
import { submitBatch, type SubmitOutcome, type SubmitRequest } from './submit.service.js';

/**
 * The database side of submit, one per app: concurrent submits are served together, each batch in one transaction
 * with a fixed number of statements (one SELECT … IN for the sessions, then multi-row writes).
 */
export interface SubmitPipeline {
  submit(request: SubmitRequest): Promise<SubmitOutcome>;
  idle(): Promise<void>;
}

export function submitPipeline(db: Knex): SubmitPipeline {
  const batches = coalesce((requests: SubmitRequest[]) => db.transaction((trx) => submitBatch(trx, requests)));
  return { submit: batches.call, idle: batches.idle };
}
