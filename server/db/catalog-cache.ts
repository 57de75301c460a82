import type { Db } from './knex.js';
import { clearAfterWrite, perDatabase } from './read-cache.js';
import { SerializedJson } from '../http/envelope.js';

/**
 * Serialized catalog reads (product pages, course lists and details): the hot path of every catalog screen. Any
 * write to products, courses, their bindings or a media review clears all of it, on every node (db/cache-bus.ts).
 */
const catalogCache = perDatabase<SerializedJson>({ name: 'catalog', maxBytes: 8 * 1024 * 1024, ttlMs: 2_000, sizeOf: (page) => 64 + 2 * page.json.length });

/** The JSON of `load()`, from the cache when this key was read since the last catalog change. */
export async function cachedCatalogJson(db: Db, key: string, load: () => Promise<unknown>): Promise<SerializedJson> {
  return (await catalogCache(db).get(key, async () => new SerializedJson(JSON.stringify(await load()))))!;
}

export const catalogChanged = (db: Db): void => clearAfterWrite(catalogCache(db), db);
