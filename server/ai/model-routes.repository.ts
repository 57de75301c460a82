import type { Db } from '../db/knex.js';
import type { AiRoute, AiRouteKind } from '../../contract/ai.js';
import { toBool, toNullableNumber } from '../db/rows.js';
import { now } from '../db/time.js';
import { clearAfterWrite, perDatabase } from '../db/read-cache.js';
import { maskSecret } from '../system/config.service.js';
import type { RouteUpdateInput } from './model-routes.schema.js';
import { searchAndPage } from '../db/paginate.js';
import type { SearchPagingFilter } from '../http/validate.js';

/** As stored: the key in clear, booleans as the driver returns them. */
export type ModelRouteRow = Omit<AiRoute, 'has_api_key' | 'enabled' | 'is_local' | 'for_branches'> & { enabled: boolean | number; is_local: boolean | number; for_branches: boolean | number };

/** What leaves the server: the key masked. */
export const toAiRoute = (r: ModelRouteRow): AiRoute => ({
  id: Number(r.id),
  name: r.name,
  kind: r.kind,
  provider: r.provider,
  base_url: r.base_url,
  api_key: maskSecret(r.api_key),
  has_api_key: r.api_key !== '',
  model: r.model,
  priority: Number(r.priority),
  enabled: toBool(r.enabled),
  is_local: toBool(r.is_local),
  for_branches: toBool(r.for_branches),
  connect_timeout_ms: toNullableNumber(r.connect_timeout_ms),
  idle_timeout_ms: toNullableNumber(r.idle_timeout_ms),
  created_at: r.created_at,
  updated_at: r.updated_at,
});

const inOrder = (db: Db) => db<ModelRouteRow>('ai_routes').orderBy([{ column: 'priority' }, { column: 'id' }]);

/** By priority, then id; `q` searches name and model, `page` + `size` page them (all when neither is given). */
function queryRouteRows(db: Db, filter: RouteRowFilter): Promise<ModelRouteRow[]> {
  const query = inOrder(db);
  if (filter.kind) query.where('kind', filter.kind);
  if (filter.enabledOnly) query.where('enabled', true);
  return searchAndPage(query, ['name', 'model'], filter);
}

type RouteRowFilter = SearchPagingFilter & { kind?: AiRouteKind; enabledOnly?: boolean };

/** The enabled routes of a kind are read before every model call; the writers below clear them. */
const enabledRoutesCache = perDatabase<ModelRouteRow[]>({ name: 'model-routes', maxBytes: 256 * 1024, ttlMs: 2_000 });

/** For writers outside this module (routes arriving from the central server). */
export const routesChanged = (db: Db): void => clearAfterWrite(enabledRoutesCache(db), db);

export async function listRouteRows(db: Db, filter: RouteRowFilter = {}): Promise<ModelRouteRow[]> {
  if (!filter.enabledOnly || !filter.kind) return queryRouteRows(db, filter);
  return [...(await enabledRoutesCache(db).get(filter.kind, () => queryRouteRows(db, filter)))!];
}

export const findRouteRow = (db: Db, id: number): Promise<ModelRouteRow | undefined> => db<ModelRouteRow>('ai_routes').where({ id }).first();

export type RouteValues = Omit<ModelRouteRow, 'id' | 'created_at' | 'updated_at' | 'enabled' | 'is_local' | 'for_branches'> & { enabled: boolean; is_local: boolean; for_branches: boolean };

export async function insertRoute(db: Db, values: RouteValues): Promise<number> {
  const stamp = now();
  const [row] = await db('ai_routes').insert({ ...values, created_at: stamp, updated_at: stamp }).returning('id');
  clearAfterWrite(enabledRoutesCache(db), db);
  return Number((row as { id: number }).id);
}

export async function updateRouteRow(db: Db, id: number, changes: RouteUpdateInput): Promise<void> {
  await db('ai_routes').where({ id }).update({ ...changes, updated_at: now() });
  clearAfterWrite(enabledRoutesCache(db), db);
}

export async function deleteRouteRow(db: Db, id: number): Promise<number> {
  const deleted = await db('ai_routes').where({ id }).delete();
  clearAfterWrite(enabledRoutesCache(db), db);
  return deleted;
}
