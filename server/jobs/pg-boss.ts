// The central server's job queue: pg-boss keeps the jobs in PostgreSQL (schema `<app schema>_jobs`). A node claims a
// job (SKIP LOCKED) with a lease of the kind's leaseSeconds; a node that dies keeps it only until the lease runs out,
// then pg-boss's maintenance puts it back for a retry and whichever node polls first takes it over, progress
// starting again (handlers are idempotent: they replace what a half-done run wrote). Retries are bounded by the
// kind's retryLimit; a cancel on any node marks the job cancelled, and the node running it sees that within a poll.
import PgBoss from 'pg-boss';
import type { JobContext, JobKind, JobQueue } from './queue.js';
import { withStartupLock } from '../db/startup-lock.js';

const POLL_SECONDS = 1;
const CANCEL_POLL_MS = 2000;
const STOP_GRACE_MS = 5000;

export interface PgBossOptions {
  url: string;
  /** The app's schema; pg-boss's tables go to `<schema>_jobs`. */
  schema?: string;
  /** How often expired leases are looked for (pg-boss's maintenance), in seconds. */
  maintenanceSeconds?: number;
  log: (err: unknown) => void;
}

export const jobsSchemaOf = (schema: string | undefined) => `${schema ?? 'trainbench'}_jobs`;

interface Running {
  name: string;
  id: string;
  abort: AbortController;
  done: Promise<unknown>;
  /** Set once the handler has returned: its job is complete, not to be handed back. */
  succeeded?: boolean;
}

export class PgBossJobQueue implements JobQueue {
  private readonly kinds = new Map<string, JobKind<unknown>>();
  private readonly running = new Set<Running>();
  private readonly boss: PgBoss;
  private stopped = false;

  constructor(private readonly options: PgBossOptions) {
    this.boss = new PgBoss({
      connectionString: options.url,
      schema: jobsSchemaOf(options.schema),
      max: 3,
      supervise: true,
      maintenanceIntervalSeconds: options.maintenanceSeconds ?? 30,
    });
    this.boss.on('error', options.log);
  }

  register<P>(kind: JobKind<P>): void {
    this.kinds.set(kind.name, kind as JobKind<unknown>);
  }

  async enqueue<P>(name: string, key: string, payload: P): Promise<void> {
    const kind = this.kinds.get(name);
    if (!kind) throw new Error(`no job kind ${name} is registered`);
    await this.boss.send(name, payload as object, { singletonKey: key, retryLimit: kind.retryLimit, expireInSeconds: kind.leaseSeconds });
  }

  async cancel(name: string, key: string): Promise<void> {
    const { rows } = await this.boss.getDb().executeSql(`SELECT id FROM ${jobsSchemaOf(this.options.schema)}.job WHERE name = $1 AND singleton_key = $2 AND state < 'completed'`, [name, key]);
    if (rows.length) await this.boss.cancel(name, rows.map((row: { id: string }) => row.id));
    for (const job of this.running) if (job.name === name && rows.some((row: { id: string }) => row.id === job.id)) job.abort.abort();
  }

  async start(): Promise<void> {
    // Nodes starting together would create the same queues (partitions) at once and deadlock: they take turns.
    await withStartupLock(this.options.url, jobsSchemaOf(this.options.schema), async () => {
      await this.boss.start();
      for (const kind of this.kinds.values()) {
        // 'stately': one job per key waiting and one running, so a key queued twice is run once.
        if (!(await this.boss.getQueue(kind.name))) {
          await this.boss.createQueue(kind.name, { name: kind.name, policy: 'stately', retryLimit: kind.retryLimit, expireInSeconds: kind.leaseSeconds });
        }
      }
    });
    for (const kind of this.kinds.values()) {
      // One worker per job this node may run at once: each claims its next job when it is free.
      for (let worker = 0; worker < (kind.concurrency ?? 1); worker++) {
        await this.boss.work<unknown>(kind.name, { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: POLL_SECONDS }, async ([job]) => {
          if (!job || this.stopped) return;
          await this.runOne(kind, job);
        });
      }
    }
  }

  private async runOne(kind: JobKind<unknown>, job: PgBoss.JobWithMetadata<unknown>): Promise<void> {
    const abort = new AbortController();
    // A cancel on another node only marks the job: look now and then.
    const watch = setInterval(() => {
      this.boss
        .getJobById(kind.name, job.id)
        .then((current) => current?.state === 'cancelled' && abort.abort())
        .catch(() => undefined);
    }, CANCEL_POLL_MS);
    const context: JobContext = { signal: abort.signal, attempt: job.retryCount };
    const done = kind.run(job.data, context);
    const entry: Running = { name: kind.name, id: job.id, abort, done };
    this.running.add(entry);
    try {
      await done;
      entry.succeeded = true;
    } finally {
      clearInterval(watch);
      this.running.delete(entry);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const name of this.kinds.keys()) await this.boss.offWork(name).catch(() => undefined);
    const running = [...this.running];
    for (const job of running) job.abort.abort();
    await Promise.race([Promise.allSettled(running.map((job) => job.done)), new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref())]);
    // What was stopped hands its lease back at once: another node retries it now, not when the lease runs out. Also a
    // handler that gave up within the grace: pg-boss does not await its own fail of it, which stop() can cut off.
    for (const job of running) if (!job.succeeded) await this.boss.fail(job.name, job.id, { message: 'the node stopped' }).catch(() => undefined);
    await this.boss.stop({ graceful: false, wait: true }).catch(this.options.log);
  }
}
