// Read caches across the nodes of a cluster (docs/architecture.md, "Central cluster"): a write on one node clears
// the named cache on every node sharing the database. On PostgreSQL the node that wrote sends a NOTIFY once the write
// is committed, and every node LISTENs on one connection of its own; a lost listening connection clears every cache
// and reconnects. SQLite has one server per file: its bus only clears locally.
import type { Knex } from 'knex';
import { isPostgres } from './knex.js';
import { recordCacheBusLag } from '../metrics/metrics.js';

const CHANNEL = 'trainbench_cache';
const RECONNECT_MS = 500;

export interface CacheBus {
  /** Tells the other nodes that `cache` changed (the caller has cleared its own). */
  publish(cache: string): void;
  close(): Promise<void>;
}

type Clearer = (cache: string | null) => void;

/** The caches of each database (by its knex config, as perDatabase keys them), cleared by name on a message. */
const listeners = new WeakMap<object, Clearer>();
const buses = new WeakMap<object, CacheBus>();

export function onCacheMessage(db: { client: { config: object } }, clear: Clearer): void {
  listeners.set(db.client.config, clear);
}

/** The bus of a database, once started (none: only this process caches, as on the laptop). */
export const cacheBusOf = (db: { client: { config: object } }): CacheBus | undefined => buses.get(db.client.config);

interface PgConnection {
  query(sql: string, params?: unknown[]): Promise<unknown>;
  on(event: 'notification', listener: (message: { channel: string; payload?: string }) => void): void;
  on(event: 'error' | 'end', listener: () => void): void;
  removeAllListeners(): void;
}

class PostgresCacheBus implements CacheBus {
  private connection: PgConnection | undefined;
  private closed = false;
  private timer: NodeJS.Timeout | undefined;
  /**
   * When this node sent each message still on its way back to it (PostgreSQL delivers a NOTIFY to its sender's
   * LISTEN too): its round trip is the bus's lag (trainbench_cache_bus_lag_seconds), no clocks of two nodes compared.
   */
  private readonly sentAt = new Map<string, number[]>();

  constructor(
    private readonly db: Knex,
    private readonly schema: string,
  ) {}

  async connect(): Promise<void> {
    const client = this.db.client as { acquireRawConnection(): Promise<PgConnection>; destroyRawConnection(c: PgConnection): Promise<void> };
    const connection = await client.acquireRawConnection();
    if (this.closed) return void (await client.destroyRawConnection(connection));
    connection.on('notification', ({ channel, payload }) => {
      if (channel !== CHANNEL || !payload) return;
      const sent = this.sentAt.get(payload)?.shift();
      if (sent !== undefined) recordCacheBusLag((performance.now() - sent) / 1000);
      const tab = payload.indexOf('\t');
      if (payload.slice(0, tab) === this.schema) this.clearLocal(payload.slice(tab + 1));
    });
    const lost = () => {
      connection.removeAllListeners();
      if (this.connection === connection) this.connection = undefined;
      // Messages may have been missed: forget everything, listen again.
      this.clearLocal(null);
      if (!this.closed) this.timer = setTimeout(() => this.connect().catch(lost), RECONNECT_MS);
    };
    connection.on('error', lost);
    connection.on('end', lost);
    await connection.query(`LISTEN ${CHANNEL}`);
    this.connection = connection;
  }

  private clearLocal(cache: string | null): void {
    listeners.get(this.db.client.config)?.(cache);
  }

  publish(cache: string): void {
    const payload = `${this.schema}\t${cache}`;
    const times = this.sentAt.get(payload) ?? [];
    // A message that never came back (a lost connection) must not keep its entry for ever.
    if (times.length >= 100) times.shift();
    times.push(performance.now());
    this.sentAt.set(payload, times);
    this.db.raw('SELECT pg_notify(?, ?)', [CHANNEL, payload]).catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    const connection = this.connection;
    this.connection = undefined;
    if (connection) {
      connection.removeAllListeners();
      await (this.db.client as { destroyRawConnection(c: PgConnection): Promise<void> }).destroyRawConnection(connection).catch(() => undefined);
    }
  }
}

/** Starts this node's bus for `db` (PostgreSQL); the laptop's SQLite needs none. Returns how to stop it. */
export async function startCacheBus(db: Knex, schema: string | undefined): Promise<() => Promise<void>> {
  if (!isPostgres(db)) return async () => undefined;
  const bus = new PostgresCacheBus(db, schema ?? 'public');
  await bus.connect();
  buses.set(db.client.config, bus);
  return async () => {
    buses.delete(db.client.config);
    await bus.close();
  };
}
