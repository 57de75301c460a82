// Central: a page of changes after a cursor, each with its row's latest state (docs/sync.md, "Cursor").
import type { Db } from '../db/knex.js';
import { isPostgres } from '../db/knex.js';
import type { PulledChange, PullPage } from '../../contract/sync.js';
import { validationFailed } from '../http/errors.js';
import { entityDef, toWire } from './entities.js';
import { fillMissingHashes } from './files.central.js';
import type { Storage } from '../storage/index.js';
import { PARAMETERS_ENTITY, PARAMETERS_GID, parametersWire } from './parameters.js';

interface Position {
  xid: string;
  seq: string;
}

const START: Position = { xid: '0', seq: '0' };
export const encodeCursor = (p: Position): string => `${p.xid}.${p.seq}`;

export function decodeCursor(cursor: string | undefined): Position {
  if (!cursor) return START;
  const match = /^(\d{1,20})\.(\d{1,20})$/.exec(cursor);
  if (!match) throw validationFailed('Invalid cursor');
  return { xid: match[1]!, seq: match[2]! };
}

/**
 * Changes of transactions that may still be running are not served: every transaction older than the oldest one
 * running has finished, so nothing can later appear before the cursor (PostgreSQL). SQLite commits one writer at a
 * time in order, and writes xid 0.
 */
async function horizon(db: Db): Promise<string> {
  if (!isPostgres(db)) return '1';
  const result = await db.raw('SELECT txid_snapshot_xmin(txid_current_snapshot())::text AS h');
  return String(result.rows[0].h);
}

interface ChangeRow {
  seq: string | number;
  xid: string | number;
  entity: string;
  row_id: number;
  op: 'upsert' | 'delete';
  gid: string | null;
}

const after = (db: Db, from: Position, until: string) =>
  db<ChangeRow>('sync_changes')
    .where((q) => q.where('xid', '>', from.xid).orWhere((q2) => q2.where('xid', from.xid).andWhere('seq', '>', from.seq)))
    .andWhere('xid', '<', until);

/** A change resolved to its row's latest state, with where the row first appears among the page's changes. */
interface Resolved {
  change: PulledChange;
  first: number;
}

const isSynced = (entity: string): boolean => entity === PARAMETERS_ENTITY || !!entityDef(entity);

/** The latest state of each row the changes name, in the order each row first appears. */
async function resolve(db: Db, storage: Storage, changes: ChangeRow[]): Promise<Resolved[]> {
  const latest = new Map<string, { change: ChangeRow; first: number }>();
  changes.forEach((change, index) => {
    const key = `${change.entity}/${change.row_id}`;
    const seen = latest.get(key);
    latest.set(key, seen ? { change: { ...change, gid: change.gid ?? seen.change.gid }, first: seen.first } : { change, first: index });
  });
  const byEntity = new Map<string, number[]>();
  for (const { change } of latest.values()) byEntity.set(change.entity, [...(byEntity.get(change.entity) ?? []), Number(change.row_id)]);
  const states = new Map<string, { gid: string; data: Record<string, unknown> | null; gone?: Record<string, unknown> | null }>();
  for (const [entity, ids] of byEntity) {
    if (entity === PARAMETERS_ENTITY) {
      states.set(`${entity}/0`, { gid: PARAMETERS_GID, data: await parametersWire(db) });
      continue;
    }
    const def = entityDef(entity);
    if (!def) continue;
    let rows = (await db(def.table).whereIn('id', ids)) as Record<string, unknown>[];
    if (entity === 'media') rows = await fillMissingHashes(db, storage, rows);
    const visible = rows.filter((row) => !def.hidden?.(row));
    const wire = await toWire(db, def, visible);
    for (const row of rows) states.set(`${entity}/${row.id}`, { gid: String(row.gid), data: wire.get(Number(row.id)) ?? null, gone: def.hiddenState?.(row) ?? null });
  }
  const out: Resolved[] = [];
  for (const [key, { change, first }] of latest) {
    const state = states.get(key);
    const gid = state?.gid ?? change.gid;
    if (!gid || !isSynced(change.entity)) continue;
    const pulled: PulledChange = state?.data ? { entity: change.entity, gid, op: 'upsert', data: state.data } : { entity: change.entity, gid, op: 'delete', data: state?.gone ?? null };
    out.push({ change: pulled, first });
  }
  return out;
}

/** A page stops growing past this many bytes of JSON (knowledge travels with its chunks); one row always fits. */
const PAGE_BYTES = 4 * 1024 * 1024;

/** How many of the changes the page serves: all, or those before the first row that takes it past PAGE_BYTES. */
function withinBudget(resolved: Resolved[], changeCount: number): { served: Resolved[]; upTo: number } {
  let bytes = 0;
  for (const [i, entry] of resolved.entries()) {
    bytes += JSON.stringify(entry.change).length;
    if (bytes > PAGE_BYTES && i > 0) return { served: resolved.slice(0, i), upTo: entry.first };
  }
  return { served: resolved, upTo: changeCount };
}

/** How long a pull waits for the transactions that hold back changes already committed when it came. */
const SETTLE_MS = 2_000;
const SETTLE_POLL_MS = 25;

/**
 * The horizon once every change committed before this pull can be served: any writing transaction of the cluster
 * (a busy server's, or another database's) holds the horizon back while it runs, and most finish within
 * milliseconds. Without the wait, a change made just before a sync could arrive only at the sync after.
 */
async function settledHorizon(db: Db, from: Position): Promise<string> {
  let until = await horizon(db);
  if (!isPostgres(db)) return until;
  const newest = (await after(db, from, '9223372036854775807').max({ xid: 'xid' }).first()) as { xid: string | number | null } | undefined;
  if (newest?.xid == null) return until;
  const deadline = Date.now() + SETTLE_MS;
  while (BigInt(until) <= BigInt(newest.xid) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
    until = await horizon(db);
  }
  return until;
}

export async function pullPage(db: Db, storage: Storage, cursor: string | undefined, limit: number): Promise<PullPage & { remaining: number }> {
  const from = decodeCursor(cursor);
  const until = await settledHorizon(db, from);
  const rows = (await after(db, from, until).orderBy([{ column: 'xid' }, { column: 'seq' }]).limit(limit)) as ChangeRow[];
  const { served, upTo } = withinBudget(await resolve(db, storage, rows), rows.length);
  // Rows of the served changes that appear again after the cut are served again with the next page (idempotent).
  const last = rows[upTo - 1];
  const next = last ? { xid: String(last.xid), seq: String(last.seq) } : from;
  const left = await after(db, next, until).count({ count: '*' }).first();
  const remaining = Number(left?.count ?? 0);
  return { changes: served.map((r) => r.change), cursor: encodeCursor(next), more: remaining > 0, remaining };
}
