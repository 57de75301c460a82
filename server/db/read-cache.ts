import type { Knex } from 'knex';
import { LRUCache } from 'lru-cache';

/**
 * A read-through cache for hot, rarely written rows (the caller on every request, catalog pages). Writers in this
 * process clear it at once; the short TTL bounds staleness when several servers share one PostgreSQL database.
 */
export class ReadCache<V extends object> {
  private readonly cache: LRUCache<string, V>;
  private readonly inflight = new Map<string, Promise<V | undefined>>();
  private generation = 0;

  constructor(max: number, ttlMs: number) {
    this.cache = new LRUCache<string, V>({ max, ttl: ttlMs });
  }

  async get(key: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const hit = this.cache.get(key);
    if (hit) return hit;
    const pending = this.inflight.get(key);
    if (pending) return pending;
    const generation = this.generation;
    const loading = load().then((value) => {
      // A write during the load may have made this value stale: serve it once, do not keep it.
      if (value && generation === this.generation) this.cache.set(key, value);
      return value;
    });
    this.inflight.set(key, loading);
    try {
      return await loading;
    } finally {
      this.inflight.delete(key);
    }
  }

  clear(): void {
    this.generation++;
    this.cache.clear();
    this.inflight.clear();
  }
}

/** One cache per database (tests and tools may open several in one process); transactions share their parent's. */
export function perDatabase<V extends object>(max: number, ttlMs: number): (db: { client: { config: object } }) => ReadCache<V> {
  const caches = new WeakMap<object, ReadCache<V>>();
  return (db) => {
    let cache = caches.get(db.client.config);
    if (!cache) caches.set(db.client.config, (cache = new ReadCache<V>(max, ttlMs)));
    return cache;
  };
}

/**
 * Clears a cache after a write through `db`: now and, for a write inside a transaction, again once it has ended (a
 * read between the two would otherwise keep the committed-over value for the whole TTL).
 */
export function clearAfterWrite(cache: { clear(): void }, db: Knex | Knex.Transaction): void {
  cache.clear();
  if (db.isTransaction) {
    const clearAgain = () => cache.clear();
    (db as Knex.Transaction).executionPromise.then(clearAgain, clearAgain);
  }
}
