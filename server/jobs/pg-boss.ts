// The central server's job queue: pg-boss keeps the jobs in PostgreSQL (schema `<app schema>_jobs`). A node claims a
// job (SKIP LOCKED) with a lease of the kind's leaseSeconds, renewed every third of it while the job runs, so a job
// longer than its lease stays where it runs; a node that dies (or hangs) keeps it only until the lease runs out,
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

const POLL_MS = 1000;
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
  /** Set once the job's end is written (completed, failed, or handed back by stop): not to be written again. */
  settled?: boolean;
}

const nodeStopped = () => new Error('the node stopped');

/** The run's claim is gone: its lease ran out and the job went back to the queue (or to another node). */
class LeaseLost extends Error {
  override name = 'LeaseLost';
  constructor() {
    super('the lease ran out');
  }
}

/** What pg-boss keeps of a failure: its message (serialize-error's copy of an Error). */
const errorOf = (err: unknown): object => (err instanceof Error ? err : { message: String(err) });

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
  /** This node's worker loops (a kind's concurrency of them), and per kind the wake-ups of those idle now. */
  private readonly loops: Promise<void>[] = [];
  private readonly idle = new Map<string, Set<() => void>>();
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
          if (id) this.wakeIdle(kind);
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
    this.wakeIdle(name);
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
      // A worker runs one job at a time: a kind's concurrency is that many workers on this node.
      const count = kind.oneAtATime ? 1 : (kind.concurrency ?? 1);
      this.idle.set(kind.name, new Set());
      for (let i = 0; i < count; i++) this.loops.push(this.work(kind));
    }
    for (const [kind, every] of this.schedules) this.tick(kind, every, every.firstAfterMs ?? Math.min(every.everyMs, 1000));
  }

  /**
   * A worker of ours rather than pg-boss's work(): pg-boss fails a job whose handler runs longer than the expiry it
   * was fetched with, which would hand a long job to another node however often its lease is renewed.
   */
  private async work(kind: JobKind<unknown, unknown>): Promise<void> {
    while (!this.stopped) {
      const job = await this.boss.fetch<unknown>(kind.name, { batchSize: 1, includeMetadata: true }).then(
        ([first]) => first,
        (err) => void (this.stopped || this.options.log(err)),
      );
      if (job) await this.runClaimed(kind, job);
      else await this.nap(kind.name);
    }
  }

  /** Waits a poll, or until a job of the kind is sent from this node (or the node stops). */
  private nap(name: string): Promise<void> {
    const idle = this.idle.get(name)!;
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        idle.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, POLL_MS);
      idle.add(wake);
    });
  }

  private wakeIdle(name: string): void {
    for (const wake of [...(this.idle.get(name) ?? [])]) wake();
  }

  /** Runs a claimed job and writes its end: the outcome as its output, or the failure for pg-boss to retry. */
  private async runClaimed(kind: JobKind<unknown, unknown>, job: PgBoss.JobWithMetadata<unknown>): Promise<void> {
    // Fetched while stopping: failed at once, so another node retries it.
    if (this.stopped) {
      await this.boss.fail(kind.name, job.id, { message: 'the node stopped' }).catch(() => undefined);
      return;
    }
    const abort = new AbortController();
    const done = settle(() => kind.run(job.data, { signal: abort.signal, attempt: job.retryCount }));
    const entry: Running = { name: kind.name, id: job.id, abort, done };
    this.running.add(entry);
    const stopWatching = this.watch(kind, job, abort);
    try {
      const outcome = await done.then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      );
      // A run whose lease was lost writes nothing: the job is another node's now (or back in the queue). A run stop()
      // already handed back is not written again.
      if (entry.settled || abort.signal.reason instanceof LeaseLost) return;
      entry.settled = true;
      if ('value' in outcome) await this.boss.complete(kind.name, job.id, outcome.value).catch(this.options.log);
      else await this.boss.fail(kind.name, job.id, errorOf(outcome.error)).catch(this.options.log);
    } finally {
      entry.settled = true;
      stopWatching();
      this.running.delete(entry);
    }
  }

  /**
   * While the job runs: its lease is renewed every third of it, and its row is read now and then, since a cancel on
   * another node only marks it. A renewal that finds the claim gone (the lease ran out and the job was handed back,
   * or it was cancelled) aborts the run. Returns the function that stops watching.
   */
  private watch(kind: JobKind<unknown, unknown>, job: PgBoss.JobWithMetadata<unknown>, abort: AbortController): () => void {
    const jobs = jobsSchemaOf(this.options.schema);
    const lost = () => {
      if (!abort.signal.aborted) abort.abort(new LeaseLost());
    };
    const claimGone = () =>
      this.boss
        .getJobById(kind.name, job.id)
        .then((current) => (current?.state === 'cancelled' ? abort.abort(cancelledElsewhere()) : lost()))
        .catch(lost);
    const renew = setInterval(
      () => {
        // The claim is the active row at this run's retry count: a takeover raised it. expire_in counts from started_on.
        this.boss
          .getDb()
          .executeSql(
            `UPDATE ${jobs}.job SET expire_in = (now() - started_on) + make_interval(secs => $4) WHERE name = $1 AND id = $2 AND state = 'active' AND retry_count = $3 RETURNING id`,
            [kind.name, job.id, job.retryCount, kind.leaseSeconds],
          )
          .then(({ rows }) => (rows.length ? undefined : claimGone()))
          .catch(this.options.log);
      },
      Math.max(1000, (kind.leaseSeconds * 1000) / 3),
    );
    const cancelled = setInterval(() => {
      this.boss
        .getJobById(kind.name, job.id)
        .then((current) => {
          if (current?.state === 'cancelled') abort.abort(cancelledElsewhere());
          else if (current?.state !== 'active' || current.retryCount !== job.retryCount) lost();
        })
        .catch(() => undefined);
    }, CANCEL_POLL_MS);
    return () => {
      clearInterval(renew);
      clearInterval(cancelled);
    };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const name of this.idle.keys()) this.wakeIdle(name);
    const running = [...this.running];
    for (const job of running) job.abort.abort(nodeStopped());
    await Promise.race([Promise.allSettled(this.loops), new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref())]);
    // What is still running after the grace hands its lease back at once: another node retries it now, not when the
    // lease runs out.
    for (const job of running) {
      if (job.settled) continue;
      job.settled = true;
      await this.boss.fail(job.name, job.id, { message: 'the node stopped' }).catch(() => undefined);
    }
    await this.boss.stop({ graceful: false, wait: true }).catch(this.options.log);
    // The workers' last fetches (and a job fetched meanwhile, failed at once) finish before the connections close.
    await this.connections.close(STOP_GRACE_MS);
  }
}
