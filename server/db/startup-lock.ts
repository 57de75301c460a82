// Nodes of a cluster that start at once on an empty database take turns: creating the schema, the migrations, the
// first admin and the install's secrets run under one PostgreSQL advisory lock per schema, held by a connection of
// its own (released when it closes, so a node that dies while holding it frees it). A laptop's SQLite file has one
// server, which needs no lock.
import knexFactory from 'knex';

const LOCK_CLASS = 0x7442; // "tB": advisory locks of Trainbench's start-up, one per schema

export async function withStartupLock<T>(url: string | undefined, schema: string | undefined, run: () => Promise<T>): Promise<T> {
  if (!url) return run();
  // One connection, so the session lock and its release are on the same one.
  const holder = knexFactory({ client: 'pg', connection: url, pool: { min: 1, max: 1 } });
  try {
    await holder.raw('SELECT pg_advisory_lock(?, hashtext(?))', [LOCK_CLASS, schema ?? 'public']);
    return await run();
  } finally {
    await holder.destroy();
  }
}
