// Background work behind one small interface (docs/architecture.md, "Central cluster"): a domain registers a kind
// of job with its handler and enqueues payloads under a key; the queue runs them one at a time per kind. The laptop
// runs them in this process (in-process.ts); the central server on PostgreSQL keeps them in pg-boss's tables
// (pg-boss.ts), where a job is claimed with a lease that a dead node loses, so another node takes it over.

export interface JobContext {
  /** Aborted when the job is cancelled (from any node) or the node stops: the handler should give up. */
  signal: AbortSignal;
  /** 0 for the first run, then how many times it was taken up again (a retry, a node that died). */
  attempt: number;
}

export interface JobKind<P> {
  /** The queue's name (letters, digits, dots, dashes). */
  name: string;
  run(payload: P, job: JobContext): Promise<void>;
  /** Runs again after a failure or a lost lease, at most this many times (bounded retries). */
  retryLimit: number;
  /** How long a node may hold a job before it counts as lost and another node takes it (PostgreSQL). */
  leaseSeconds: number;
  /** How many jobs of this kind one node runs at once (default 1). */
  concurrency?: number;
  /**
   * Payloads whose work a previous run of this process left unfinished (queued or running in the domain's rows):
   * the in-process queue takes them up at start. pg-boss keeps its jobs, so it never asks.
   */
  unfinished?(): Promise<{ key: string; payload: P }[]>;
}

export interface JobQueue {
  register<P>(kind: JobKind<P>): void;
  /** Queues the payload; a key already waiting is not queued twice. */
  enqueue<P>(name: string, key: string, payload: P): Promise<void>;
  /** Stops the job of that key, waiting or running, on whichever node has it. */
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
