import type { Knex } from 'knex';
import type { SubmitResult } from '../../contract/exams.js';
import { storeSubmits, type GradedSubmit } from './submit-store.js';

/** Submits stored per transaction at most; bounds statement sizes and the latency of one flush. */
const MAX_BATCH = 64;

interface Pending {
  submit: GradedSubmit;
  resolve(result: SubmitResult | undefined): void;
  reject(error: unknown): void;
}

/**
 * Group commit for submits. SQLite has one connection, and a transaction per submit would hold it across every
 * statement round trip; instead, submits that arrive while a transaction runs wait for the next one, and each
 * transaction stores all waiting submits with a fixed number of multi-row statements. An idle writer starts at
 * once, so a lone submit waits for nothing. If a batch fails, its submits are retried one by one so that only
 * the faulty one fails.
 */
export class SubmitWriter {
  private queue: Pending[] = [];
  private draining: Promise<void> | null = null;

  constructor(private readonly db: Knex) {}

  /** The stored result, or undefined when the session was consumed by another submit. */
  write(submit: GradedSubmit): Promise<SubmitResult | undefined> {
    return new Promise((resolve, reject) => {
      this.queue.push({ submit, resolve, reject });
      this.draining ??= this.drain().finally(() => (this.draining = null));
    });
  }

  /** Resolves once everything queued so far is stored (for a clean shutdown). */
  async idle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  private async drain(): Promise<void> {
    while (this.queue.length) {
      const batch = this.queue.splice(0, MAX_BATCH);
      try {
        await this.flush(batch);
      } catch {
        if (batch.length === 1) continue;
        for (const pending of batch) await this.flush([pending]).catch(() => undefined);
      }
    }
  }

  /** Stores the batch in one transaction and settles its promises; rejects (after rejecting a lone submit) on failure. */
  private async flush(batch: Pending[]): Promise<void> {
    try {
      const results = await this.db.transaction((trx) => storeSubmits(trx, batch.map((p) => p.submit)));
      batch.forEach((pending, i) => pending.resolve(results[i]));
    } catch (error) {
      if (batch.length === 1) batch[0]!.reject(error);
      throw error;
    }
  }
}
