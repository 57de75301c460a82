// A lock held until the end of a transaction, for a check-then-insert that must not interleave with itself (the
// attempts of a paper). PostgreSQL takes a transaction-scoped advisory lock on the name; SQLite's one pooled
// connection already runs a transaction alone.
import type { Knex } from 'knex';
import { isPostgres } from './knex.js';

export async function lockForTransaction(trx: Knex.Transaction, name: string): Promise<void> {
  if (isPostgres(trx)) await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [name]);
}
