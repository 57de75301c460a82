// The review queue read by every home page and session (docs/api/review.md), cached per person and minute of the
// review clock: a card falls due at most a minute before it is listed. Any card rebuilt or question edited in this
// process clears it; the TTL bounds staleness when several servers share one PostgreSQL database.
import type { Db } from '../db/knex.js';
import { clearAfterWrite, perDatabase } from '../db/read-cache.js';
import type { ReviewQueue } from '../../contract/review.js';

const queueCache = perDatabase<ReviewQueue>({ name: 'review-queue', maxBytes: 4 * 1024 * 1024, ttlMs: 60_000 });

export async function cachedQueue(db: Db, userId: number, at: Date, load: () => Promise<ReviewQueue>): Promise<ReviewQueue> {
  return (await queueCache(db).get(`${userId}/${Math.floor(at.getTime() / 60_000)}`, load))!;
}

/** Cards or questions changed through `db`: the queues are read again. */
export const reviewQueueChanged = (db: Db): void => clearAfterWrite(queueCache(db), db);
