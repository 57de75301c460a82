import type { Knex } from 'knex';
import { LRUCache } from 'lru-cache';
import { cacheBusOf, onCacheMessage } from './cache-bus.js';

/** Rough bytes a value keeps alive: 2 per string character (V8 keeps Chinese text two bytes a character), 8 per number and 32 per object, array element or property. */
export function approximateSize(value: unknown, depth = 0): number {
  if (typeof value === 'string') return 16 + 2 * value.length;
  if (typeof value !== 'object' || value === null) return 8;
  if (depth > 8) return 32;
  let size = 32;
  if (Array.isArray(value)) for (const item of value) size += 8 + approximateSize(item, depth + 1);
  else for (const key in value) size += 32 + approximateSize((value as Record<string, unknown>)[key], depth + 1);
  return size;
}

export interface ReadCacheOptions<V> {
  /** The cache's name in the messages that clear it on every node (cache-bus.ts). */
  name: string;
  /** What the entries may hold together, in bytes by `sizeOf`: the least recently used go first. */
  maxBytes: number;
  /** Expired entries are dropped, not kept (and a bound on staleness should a node miss a clearing message). */
  ttlMs: number;
  /** Bytes one entry keeps alive (approximateSize unless the value knows better). */
  sizeOf?: (value: V, key: string) => number;
}

/**
 * A read-through cache for hot, rarely written rows (the caller on every request, catalog pages). Writers clear it
 * at once with clearAfterWrite, here and, through the cache bus, on every node sharing the PostgreSQL database.
 * Bounded by bytes, not entries: one cached page of every product weighs as much as ten thousand small rows.
 */
export class ReadCache<V extends object> {
  private readonly cache: LRUCache<string, V>;
  private readonly inflight = new Map<string, Promise<V | undefined>>();
  private generation = 0;

  readonly name: string;

  constructor({ name, maxBytes, ttlMs, sizeOf = (value) => approximateSize(value) }: ReadCacheOptions<V>) {
    this.name = name;
    // ttlAutopurge: an idle server lets go of what the last burst of reads cached, instead of holding it until evicted.
    this.cache = new LRUCache<string, V>({ maxSize: maxBytes, sizeCalculation: (value, key) => Math.max(1, sizeOf(value, key) + 2 * key.length), ttl: ttlMs, ttlAutopurge: true });
  }

  async get(key: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const hit = this.cache.get(key);
    if (hit) return hit;
    const pending = this.inflight.get(key);
    if (pending) return pending;
    const generation = this.generation;
    const loading = load().then((value) => {
      // A write during the load may have made this value stale: serve it once, do not keep it. A value larger than
      // the whole cache is not kept either (lru-cache refuses it).
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

  /** Bytes held now, by the cache's own accounting. */
  get bytes(): number {
    return this.cache.calculatedSize;
  }
}

/** The caches of each database by name, for the cache bus's messages. */
const named = new WeakMap<object, Map<string, ReadCache<object>>>();

/** One cache per database (tests and tools may open several in one process); transactions share their parent's. */
export function perDatabase<V extends object>(options: ReadCacheOptions<V>): (db: { client: { config: object } }) => ReadCache<V> {
  const caches = new WeakMap<object, ReadCache<V>>();
  return (db) => {
    let cache = caches.get(db.client.config);
    if (!cache) {
      caches.set(db.client.config, (cache = new ReadCache<V>(options)));
      let byName = named.get(db.client.config);
      if (!byName) {
        named.set(db.client.config, (byName = new Map()));
        const all = byName;
        onCacheMessage(db, (name) => {
          for (const [key, each] of all) if (name === null || key === name) each.clear();
        });
      }
      byName.set(options.name, cache as unknown as ReadCache<object>);
    }
    return cache;
  };
}

/**
 * Clears a cache after a write through `db`: now and, for a write inside a transaction, again once it has ended (a
 * read between the two would otherwise keep the committed-over value for the whole TTL). The other nodes are told
 * once the write is committed.
 */
export function clearAfterWrite(cache: { clear(): void; name: string }, db: Knex | Knex.Transaction): void {
  cache.clear();
  const bus = cacheBusOf(db);
  if (db.isTransaction) {
    const clearAgain = () => {
      cache.clear();
      bus?.publish(cache.name);
    };
    (db as Knex.Transaction).executionPromise.then(clearAgain, clearAgain);
  } else {
    bus?.publish(cache.name);
  }
}
