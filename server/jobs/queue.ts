// Background work behind one small interface (docs/architecture.md, "Central cluster"): a domain registers a kind
// of job with its handler, then either enqueues payloads under a key (work nobody waits for: extraction) or runs one
// and awaits its result (work a request answers with: coaching analysis, knowledge ingestion, pack import). The
// laptop runs them in this process (in-process.ts); the central server on PostgreSQL keeps them in pg-boss's tables
// (pg-boss.ts), where a job is claimed with a lease that a dead node loses, so another node takes it over.

export interface JobContext {
  /** Aborted when the job is cancelled (from any node) or the node stops: the handler should give up. */
  signal: AbortSignal;
  /** 0 for the first run, then how many times it was taken up again (a retry, a node that died). */
  attempt: number;
}

export interface JobKind<P, R = void> {
  /** The queue's name (letters, digits, dots, dashes). */
  name: string;
  /**
   * The work. Taken up again after a failure or a lost lease, so it must be idempotent: a second run may not redo
   * what must happen once. An AppError it throws with a 4xx status is its answer, final: never retried.
   */
  run(payload: P, job: JobContext): Promise<R>;
  /** Runs again after a failure or a lost lease, at most this many times (bounded retries). */
  retryLimit: number;
  /** How long a node may hold a job before it counts as lost and another node takes it (PostgreSQL). */
  leaseSeconds: number;
  /** Jobs of this kind one node runs at once (1 when omitted). */
  concurrency?: number;
  /** At most one job of this kind runs at a time in the whole cluster, whichever node has it (implies concurrency 1). */
  oneAtATime?: boolean;
  /**
   * Payloads whose work a previous run of this process left unfinished (queued or running in the domain's rows):
   * the in-process queue takes them up at start. pg-boss keeps its jobs, so it never asks.
   */
  unfinished?(): Promise<{ key: string; payload: P }[]>;
}

export interface RunOptions {
  /** Aborting it cancels the job wherever it is (the client went away); run then rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** How often a scheduled task runs. */
export interface Every {
  /** Milliseconds between runs (whole seconds on PostgreSQL, where a run is claimed per slot of that length). */
  everyMs: number;
  /** The first run this long after start (by default within a second, or the period when shorter). */
  firstAfterMs?: number;
}

/** The job kind a scheduled task runs as (what the metrics call it). */
export const scheduledKind = (name: string): string => `schedule.${name}`;

export interface JobQueue {
  register<P, R = void>(kind: JobKind<P, R>): void;
  /**
   * A periodic task, run as job kind `schedule.<name>`: in this process on a laptop; on PostgreSQL once per cluster
   * per period, on whichever node claimed that period's job. Declared before start(); a run not finished when the
   * next is due is not doubled (that tick is skipped). A failed run is not retried: the next tick is its retry.
   */
  schedule(name: string, every: Every, task: (job: JobContext) => Promise<void>): void;
  /** Jobs waiting per kind (this node's on a laptop, the cluster's on PostgreSQL), for the metrics. */
  queued(): Promise<Record<string, number>>;
  /** Queues the payload; a key already waiting is not queued twice. */
  enqueue<P>(name: string, key: string, payload: P): Promise<void>;
  /**
   * Runs a job and resolves with what its handler returned, on whichever node claimed it. A 4xx AppError from the
   * handler rejects as the same AppError; another failure is retried up to the kind's retryLimit, and the last one
   * rejects (a 500 for a request). The key names the job in logs and the jobs table (a request's own id).
   */
  run<P, R>(name: string, key: string, payload: P, options?: RunOptions): Promise<R>;
  /** Stops the enqueued job of that key, waiting or running, on whichever node has it. */
  cancel(name: string, key: string): Promise<void>;
  /** Starts taking work (after every kind is registered). */
  start(): Promise<void>;
  /** Takes no more work; running jobs get a short grace, then their leases are handed back. */
  stop(): Promise<void>;
}

/** Per-database queues, for a domain that has only a db or transaction at hand (as media.signing.ts keys signers). */
const queues = new WeakMap<object, JobQueue>();
export const registerJobQueue = (db: { client: { config: object } }, queue: JobQueue): void => void queues.set(db.client.config, queue);
export const jobQueueOf = (db: { client: { config: object } }): JobQueue | undefined => queues.get(db.client.config);
