// The central server's job queue: pg-boss keeps the jobs in PostgreSQL (schema `<app schema>_jobs`). A node claims a
// job (SKIP LOCKED) with a lease of the kind's leaseSeconds; a node that dies keeps it only until the lease runs out,
// then pg-boss's maintenance puts it back for a retry and whichever node polls first takes it over, progress
// starting again (handlers are idempotent: they replace what a half-done run wrote, or find it done). Retries are
// bounded by the kind's retryLimit; the last failure stays in the job's row (`output`, state `failed`). A cancel on
// any node marks the job cancelled, and the node running it sees that within a poll.
//
// A job someone awaits (run) is sent like any other; the handler's outcome (its value, or its 4xx refusal) becomes
// the job's output, which the waiting request reads back from the row, whichever node ran it.
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { scheduledKind, type Every, type JobContext, type JobKind, type JobQueue, type RunOptions } from './queue.js';
import { answerOf, cancelledElsewhere, JobFailed, settle, type Outcome } from './outcome.js';
import { withStartupLock } from '../db/startup-lock.js';

const POLL_SECONDS = 1;
const CANCEL_POLL_MS = 2000;
/** How often a waiting request reads its job's row. */
const WAIT_POLL_MS = 200;
const STOP_GRACE_MS = 5000;
/** The singleton key every job of a one-at-a-time kind shares: pg-boss lets one job per key be active (policy singleton). */
const ONE_AT_A_TIME_KEY = 'one-at-a-time';

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

const nodeStopped = () => new Error('the node stopped');

/**
 * pg-boss's connections, given to it as its `db` so that this queue decides when they close. pg's Pool, once ended,
 * never answers a query still waiting for a connection: a worker whose poll waited there never stopped, pg-boss's
 * wait for its workers went on for ever, and the process never exited. So the pool ends only when nothing is in
 * flight (or after a bound), and queries sent after that are refused at once.
 */
class JobsConnections {
  private readonly pool: pg.Pool;
  private inFlight = 0;
  private settled: (() => void)[] = [];
  private closed = false;

  constructor(url: string, log: (err: unknown) => void) {
    this.pool = new pg.Pool({ connectionString: url, max: 3, application_name: 'pgboss' });
    this.pool.on('error', log);
  }

  async executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> {
    if (this.closed) throw nodeStopped();
    this.inFlight++;
    try {
      return await this.pool.query(text, values);
    } finally {
      if (--this.inFlight === 0) for (const resolve of this.settled.splice(0)) resolve();
    }
  }

  async close(boundMs: number): Promise<void> {
    if (this.inFlight > 0) await Promise.race([new Promise<void>((resolve) => this.settled.push(resolve)), sleep(boundMs, undefined, { ref: false })]);
    this.closed = true;
    await this.pool.end();
  }
}

/** The message pg-boss kept of a failure (serialize-error's copy of the Error, or its own timeout text). */
function failureOf(output: unknown): string {
  const out = output as { message?: unknown; value?: { message?: unknown } } | null;
  return String(out?.message ?? out?.value?.message ?? 'no reason recorded');
}

export class PgBossJobQueue implements JobQueue {
  private readonly kinds = new Map<string, JobKind<unknown, unknown>>();
  private readonly workers = new Map<string, string[]>();
  private readonly running = new Set<Running>();
  private readonly boss: PgBoss;
  private readonly connections: JobsConnections;
  private readonly schedules = new Map<string, Every>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(private readonly options: PgBossOptions) {
    this.connections = new JobsConnections(options.url, options.log);
    this.boss = new PgBoss({
      db: this.connections,
      schema: jobsSchemaOf(options.schema),
      supervise: true,
      maintenanceIntervalSeconds: options.maintenanceSeconds ?? 30,
    });
    this.boss.on('error', options.log);
  }

  register<P, R = void>(kind: JobKind<P, R>): void {
    this.kinds.set(kind.name, kind as JobKind<unknown, unknown>);
  }

  schedule(name: string, every: Every, task: (job: JobContext) => Promise<void>): void {
    const kind = scheduledKind(name);
    this.register({ name: kind, retryLimit: 0, leaseSeconds: Math.max(60, Math.ceil(every.everyMs / 1000) * 2), run: (_payload: unknown, job) => task(job) });
    this.schedules.set(kind, every);
  }

  async queued(): Promise<Record<string, number>> {
    const { rows } = await this.boss.getDb().executeSql(`SELECT name, count(*)::int AS n FROM ${jobsSchemaOf(this.options.schema)}.job WHERE state IN ('created', 'retry') GROUP BY name`, []);
    const counts: Record<string, number> = Object.fromEntries([...this.kinds.keys()].map((name) => [name, 0]));
    for (const row of rows as { name: string; n: number }[]) counts[row.name] = row.n;
    return counts;
  }

  /**
   * Every node sends the task's job each period; the job's singleton slot (pg-boss's singletonSeconds, computed from
   * the database's clock, with a unique index) lets one per slot in: the task runs once per period in the cluster.
   */
  private tick(kind: string, every: Every, delayMs: number): void {
    const slotSeconds = Math.max(1, Math.round(every.everyMs / 1000));
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (this.stopped) return;
      this.boss
        .send(kind, {}, { singletonSeconds: slotSeconds, retryLimit: 0, expireInSeconds: this.kind(kind).leaseSeconds })
        .then((id) => {
          if (id) for (const worker of this.workers.get(kind) ?? []) this.boss.notifyWorker(worker);
        })
        .catch(this.options.log);
      this.tick(kind, every, slotSeconds * 1000);
    }, delayMs).unref();
    this.timers.add(timer);
  }

  private kind(name: string): JobKind<unknown, unknown> {
    const kind = this.kinds.get(name);
    if (!kind) throw new Error(`no job kind ${name} is registered`);
    return kind;
  }

  private send(kind: JobKind<unknown, unknown>, key: string, payload: unknown): Promise<string | null> {
    const singletonKey = kind.oneAtATime ? ONE_AT_A_TIME_KEY : key;
    return this.boss.send(kind.name, payload as object, { singletonKey, retryLimit: kind.retryLimit, expireInSeconds: kind.leaseSeconds });
  }

  async enqueue<P>(name: string, key: string, payload: P): Promise<void> {
    await this.send(this.kind(name), key, payload);
  }

  async run<P, R>(name: string, key: string, payload: P, { signal }: RunOptions = {}): Promise<R> {
    const kind = this.kind(name);
    if (this.stopped) throw nodeStopped();
    signal?.throwIfAborted();
    const id = await this.send(kind, key, payload);
    if (!id) throw new Error(`job ${name} ${key} is already queued`);
    // This node's idle workers take it at once rather than at their next poll.
    for (const worker of this.workers.get(name) ?? []) this.boss.notifyWorker(worker);
    const cancel = () => void this.boss.cancel(name, id).catch(this.options.log);
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      for (;;) {
        const job = await this.boss.getJobById<P>(name, id, { includeArchive: true });
        signal?.throwIfAborted();
        if (!job) throw new JobFailed(name, key, 'the job is no longer in the jobs table');
        if (job.state === 'completed') return answerOf(job.output as Outcome<R>);
        if (job.state === 'failed') throw new JobFailed(name, key, failureOf(job.output));
        if (job.state === 'cancelled') throw cancelledElsewhere();
        await sleep(WAIT_POLL_MS, undefined, { signal }).catch(() => undefined);
      }
    } finally {
      signal?.removeEventListener('abort', cancel);
    }
  }

  async cancel(name: string, key: string): Promise<void> {
    const { rows } = await this.boss.getDb().executeSql(`SELECT id FROM ${jobsSchemaOf(this.options.schema)}.job WHERE name = $1 AND singleton_key = $2 AND state < 'completed'`, [name, key]);
    if (rows.length) await this.boss.cancel(name, rows.map((row: { id: string }) => row.id));
    for (const job of this.running) if (job.name === name && rows.some((row: { id: string }) => row.id === job.id)) job.abort.abort(cancelledElsewhere());
  }

  async start(): Promise<void> {
    // Nodes starting together would create the same queues (partitions) at once and deadlock: they take turns.
    await withStartupLock(this.options.url, jobsSchemaOf(this.options.schema), async () => {
      await this.boss.start();
      for (const kind of this.kinds.values()) {
        // 'stately': one job per key waiting and one running, so a key queued twice is run once. 'singleton' with
        // one key for every job: one running in the whole cluster, the others waiting.
        if (!(await this.boss.getQueue(kind.name))) {
          // A scheduled task's queue is 'standard': its jobs are kept apart by their slot (see tick).
          const policy = this.schedules.has(kind.name) ? 'standard' : kind.oneAtATime ? 'singleton' : 'stately';
          await this.boss.createQueue(kind.name, { name: kind.name, policy, retryLimit: kind.retryLimit, expireInSeconds: kind.leaseSeconds });
        }
      }
    });
    for (const kind of this.kinds.values()) {
      // A pg-boss worker runs one job at a time: a kind's concurrency is that many workers on this node.
      const count = kind.oneAtATime ? 1 : (kind.concurrency ?? 1);
      const ids: string[] = [];
      for (let i = 0; i < count; i++) {
        ids.push(
          await this.boss.work<unknown>(kind.name, { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: POLL_SECONDS }, async ([job]) => {
            if (!job) return undefined;
            // Fetched while stopping: failed at once, so another node retries it.
            if (this.stopped) throw nodeStopped();
            return this.runOne(kind, job);
          }),
        );
      }
      this.workers.set(kind.name, ids);
    }
    for (const [kind, every] of this.schedules) this.tick(kind, every, every.firstAfterMs ?? Math.min(every.everyMs, 1000));
  }

  /** The handler's outcome becomes the job's output; a failure is thrown for pg-boss to record and retry. */
  private async runOne(kind: JobKind<unknown, unknown>, job: PgBoss.JobWithMetadata<unknown>): Promise<Outcome<unknown>> {
    const abort = new AbortController();
    // A cancel on another node only marks the job; a lease that ran out hands it to another node: look now and then.
    const watch = setInterval(() => {
      this.boss
        .getJobById(kind.name, job.id)
        .then((current) => {
          if (current?.state === 'cancelled') abort.abort(cancelledElsewhere());
          else if (current?.state !== 'active' || +current.startedOn !== +job.startedOn) abort.abort(new Error('the lease ran out'));
        })
        .catch(() => undefined);
    }, CANCEL_POLL_MS);
    const context: JobContext = { signal: abort.signal, attempt: job.retryCount };
    const done = settle(() => kind.run(job.data, context));
    const entry: Running = { name: kind.name, id: job.id, abort, done };
    this.running.add(entry);
    try {
      const value = await done;
      entry.succeeded = true;
      return value;
    } finally {
      clearInterval(watch);
      this.running.delete(entry);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const name of this.kinds.keys()) await this.boss.offWork(name).catch(() => undefined);
    const running = [...this.running];
    for (const job of running) job.abort.abort(nodeStopped());
    await Promise.race([Promise.allSettled(running.map((job) => job.done)), new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref())]);
    // What was stopped hands its lease back at once: another node retries it now, not when the lease runs out. Also a
    // handler that gave up within the grace: pg-boss does not await its own fail of it, which stop() can cut off.
    for (const job of running) if (!job.succeeded) await this.boss.fail(job.name, job.id, { message: 'the node stopped' }).catch(() => undefined);
    await this.boss.stop({ graceful: false, wait: true }).catch(this.options.log);
    // The workers' last polls (and a job fetched meanwhile, failed at once) finish before the connections close.
    await this.connections.close(STOP_GRACE_MS);
  }
}
