// The laptop's job queue: in this process, up to the kind's concurrency at once (one by default), lost when the
// process ends; each kind's unfinished() picks its enqueued work up again at the next start. A job someone awaits
// (run) is settled through its waiter; a failure is retried up to the kind's retryLimit before the waiter hears it.
import { scheduledKind, type Every, type JobContext, type JobKind, type JobQueue, type RunOptions } from './queue.js';
import { answerOf, cancelledElsewhere, JobFailed, settle, type Outcome } from './outcome.js';

const STOP_GRACE_MS = 5000;

interface Waiter {
  settle(outcome: Outcome<unknown>): void;
  reject(err: unknown): void;
}

interface Job {
  key: string;
  payload: unknown;
  attempt: number;
  waiter?: Waiter;
}

interface Running {
  job: Job;
  abort: AbortController;
  done: Promise<void>;
}

interface Lane {
  kind: JobKind<unknown, unknown>;
  waiting: Job[];
  running: Set<Running>;
}

const nodeStopped = () => new Error('the node stopped');

export class InProcessJobQueue implements JobQueue {
  private readonly lanes = new Map<string, Lane>();
  private readonly schedules = new Map<string, Every>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private started = false;
  private stopped = false;

  constructor(private readonly log: (err: unknown) => void) {}

  schedule(name: string, every: Every, task: (job: JobContext) => Promise<void>): void {
    const kind = scheduledKind(name);
    this.register({ name: kind, retryLimit: 0, leaseSeconds: 3600, run: (_payload: unknown, job) => task(job) });
    this.schedules.set(kind, every);
  }

  async queued(): Promise<Record<string, number>> {
    return Object.fromEntries([...this.lanes].map(([name, lane]) => [name, lane.waiting.length]));
  }

  /** Queues the task each period; a tick while one is still waiting adds nothing (enqueue keeps one per key). */
  private tick(kind: string, { everyMs }: Every, delayMs: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (this.stopped) return;
      void this.enqueue(kind, 'tick', {}).catch(this.log);
      this.tick(kind, { everyMs }, everyMs);
    }, delayMs).unref();
    this.timers.add(timer);
  }

  register<P, R = void>(kind: JobKind<P, R>): void {
    this.lanes.set(kind.name, { kind: kind as JobKind<unknown, unknown>, waiting: [], running: new Set() });
  }

  async enqueue<P>(name: string, key: string, payload: P): Promise<void> {
    const lane = this.lane(name);
    if (this.stopped || lane.waiting.some((job) => job.key === key && !job.waiter)) return;
    lane.waiting.push({ key, payload, attempt: 0 });
    if (this.started) this.pump(lane);
  }

  run<P, R>(name: string, key: string, payload: P, { signal }: RunOptions = {}): Promise<R> {
    const lane = this.lane(name);
    if (this.stopped) return Promise.reject(nodeStopped());
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<R>((resolve, reject) => {
      const job: Job = {
        key,
        payload,
        attempt: 0,
        waiter: {
          settle: (outcome) => {
            try {
              resolve(answerOf(outcome as Outcome<R>));
            } catch (err) {
              reject(err);
            }
          },
          reject,
        },
      };
      signal?.addEventListener('abort', () => this.drop(lane, job, signal.reason), { once: true });
      lane.waiting.push(job);
      if (this.started) this.pump(lane);
    });
  }

  async cancel(name: string, key: string): Promise<void> {
    const lane = this.lane(name);
    for (const job of [...lane.waiting, ...[...lane.running].map((each) => each.job)]) if (job.key === key) this.drop(lane, job, cancelledElsewhere());
  }

  async start(): Promise<void> {
    this.started = true;
    for (const lane of this.lanes.values()) {
      for (const { key, payload } of (await lane.kind.unfinished?.().catch((err) => (this.log(err), []))) ?? []) await this.enqueue(lane.kind.name, key, payload);
      this.pump(lane);
    }
    for (const [kind, every] of this.schedules) this.tick(kind, every, every.firstAfterMs ?? Math.min(every.everyMs, 1000));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    const running: Promise<void>[] = [];
    for (const lane of this.lanes.values()) {
      for (const job of lane.waiting.splice(0)) job.waiter?.reject(nodeStopped());
      for (const job of lane.running) {
        job.abort.abort(nodeStopped());
        running.push(job.done);
      }
    }
    await Promise.race([Promise.all(running), new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref())]);
  }

  private lane(name: string): Lane {
    const lane = this.lanes.get(name);
    if (!lane) throw new Error(`no job kind ${name} is registered`);
    return lane;
  }

  /** Takes a job out of the line, or stops it where it runs; its waiter hears the reason. */
  private drop(lane: Lane, job: Job, reason: unknown): void {
    const at = lane.waiting.indexOf(job);
    if (at >= 0) {
      lane.waiting.splice(at, 1);
      job.waiter?.reject(reason);
      return;
    }
    for (const running of lane.running) if (running.job === job) running.abort.abort(reason);
  }

  private pump(lane: Lane): void {
    const limit = lane.kind.oneAtATime ? 1 : (lane.kind.concurrency ?? 1);
    while (!this.stopped && lane.running.size < limit && lane.waiting.length) this.begin(lane, lane.waiting.shift()!);
  }

  private begin(lane: Lane, job: Job): void {
    const abort = new AbortController();
    const context: JobContext = { signal: abort.signal, attempt: job.attempt };
    const done = settle(() => lane.kind.run(job.payload, context))
      .then((outcome) => job.waiter?.settle(outcome))
      .catch((err) => {
        this.log(err);
        if (abort.signal.aborted) job.waiter?.reject(abort.signal.reason);
        else if (!this.stopped && job.attempt < lane.kind.retryLimit) {
          job.attempt += 1;
          lane.waiting.push(job);
        }
        else job.waiter?.reject(new JobFailed(lane.kind.name, job.key, (err as Error)?.message ?? String(err)));
      })
      .finally(() => {
        lane.running.delete(running);
        this.pump(lane);
      });
    const running: Running = { job, abort, done };
    lane.running.add(running);
  }
}
