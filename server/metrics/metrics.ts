// What a node reports to Prometheus (GET /metrics, docs/deploy.md): request durations by route template, the
// process's default metrics, background jobs by kind, the database pool, the cache bus's lag, sync batches and the
// transcription queue. One registry per app (tests run several servers in one process); on a cluster each node
// serves its own figures and Prometheus adds them up.
import type { Knex } from 'knex';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Figures reported by modules that have no app at hand (the cache bus, sync): every live app's metrics hear them. */
type Listener = { cacheBusLag(seconds: number): void; syncBatch(direction: string, rows: number): void };
const listeners = new Set<Listener>();

/** A cache message arrived `seconds` after its write was committed on another node. */
export const recordCacheBusLag = (seconds: number): void => listeners.forEach((l) => l.cacheBusLag(seconds));
/** A sync batch was sent or received (`push`/`pull`), with its rows. */
export const recordSyncBatch = (direction: 'push' | 'pull', rows: number): void => listeners.forEach((l) => l.syncBatch(direction, rows));

export interface QueuedCounts {
  /** Jobs waiting per kind (this node's queue on a laptop, the cluster's on PostgreSQL). */
  queued(): Promise<Record<string, number>>;
}

export class AppMetrics {
  readonly registry = new Registry();
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  readonly jobsRunning: Gauge<'kind'>;
  readonly jobsStarted: Counter<'kind'>;
  readonly jobsCompleted: Counter<'kind'>;
  readonly jobsFailed: Counter<'kind'>;
  private readonly listener: Listener;

  constructor(db: Knex, jobs: () => QueuedCounts | undefined) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.httpDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer a request, by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.jobsRunning = new Gauge({ name: 'trainbench_jobs_running', help: 'Background jobs running on this node, by kind', labelNames: ['kind'], registers });
    this.jobsStarted = new Counter({ name: 'trainbench_jobs_started_total', help: 'Background job runs started on this node, by kind', labelNames: ['kind'], registers });
    this.jobsCompleted = new Counter({ name: 'trainbench_jobs_completed_total', help: 'Background job runs that succeeded on this node, by kind', labelNames: ['kind'], registers });
    this.jobsFailed = new Counter({ name: 'trainbench_jobs_failed_total', help: 'Background job runs that failed on this node (each attempt), by kind', labelNames: ['kind'], registers });
    new Gauge({
      name: 'trainbench_jobs_queued',
      help: 'Background jobs waiting to run, by kind',
      labelNames: ['kind'],
      registers,
      async collect() {
        this.reset();
        const counts = await jobs()?.queued().catch(() => ({}) as Record<string, number>);
        for (const [kind, count] of Object.entries(counts ?? {})) this.set({ kind }, count);
      },
    });
    const pool = () => (db.client as { pool?: { numUsed(): number; numFree(): number; numPendingAcquires(): number } }).pool;
    new Gauge({ name: 'trainbench_db_pool_used', help: 'Database connections in use', registers, collect() { this.set(pool()?.numUsed() ?? 0); } });
    new Gauge({ name: 'trainbench_db_pool_free', help: 'Database connections idle in the pool', registers, collect() { this.set(pool()?.numFree() ?? 0); } });
    new Gauge({ name: 'trainbench_db_pool_pending', help: 'Requests waiting for a database connection', registers, collect() { this.set(pool()?.numPendingAcquires() ?? 0); } });
    new Gauge({
      name: 'trainbench_transcription_queue_length',
      help: 'Transcription jobs queued or running',
      registers,
      async collect() {
        const row = (await db('audio_jobs').whereIn('state', ['queued', 'running']).count({ n: '*' }).first().catch(() => undefined)) as { n?: number | string } | undefined;
        this.set(Number(row?.n ?? 0));
      },
    });
    const cacheBusLag = new Histogram({ name: 'trainbench_cache_bus_lag_seconds', help: 'From a write committed on one node to its cache message on this one', buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5], registers });
    const syncBatches = new Counter({ name: 'trainbench_sync_batches_total', help: 'Sync batches sent (push) or received (pull)', labelNames: ['direction'], registers });
    const syncRows = new Counter({ name: 'trainbench_sync_rows_total', help: 'Rows in sync batches', labelNames: ['direction'], registers });
    this.listener = {
      cacheBusLag: (seconds) => cacheBusLag.observe(seconds),
      syncBatch: (direction, rows) => {
        syncBatches.inc({ direction });
        syncRows.inc({ direction }, rows);
      },
    };
    listeners.add(this.listener);
  }

  close(): void {
    listeners.delete(this.listener);
  }
}
