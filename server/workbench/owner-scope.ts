import type { Knex } from 'knex';
import type { Db } from '../db/knex.js';

/**
 * Rows of `table` owned (user_id) by any of `ownerIds`. An empty owner set returns [] without querying: a
 * forgotten filter must never widen to every user's records (spec 4.11 notes).
 */
export async function selectOwned<Row>(db: Db, table: string, ownerIds: readonly number[], refine?: (query: Knex.QueryBuilder) => void): Promise<Row[]> {
  if (!ownerIds.length) return [];
  const query = db(table).whereIn(`${table}.user_id`, ownerIds);
  refine?.(query);
  return (await query) as Row[];
}
