// The laptop's job queue: in this process, one job at a time per kind (or the kind's concurrency), lost when the process ends; each kind's
// unfinished() picks its work up again at the next start.
import type { JobContext, JobKind, JobQueue } from './queue.js';

const STOP_GRACE_MS = 5000;

interface Lane {
  kind: JobKind<unknown>;
  waiting: { key: string; payload: unknown; attempt: number }[];
  running: Map<string, { abort: AbortController; done: Promise<void> }>;
}

export class InProcessJobQueue implements JobQueue {
  private readonly lanes = new Map<string, Lane>();
  private started = false;
  private stopped = false;

  constructor(private readonly log: (err: unknown) => void) {}

  register<P>(kind: JobKind<P>): void {
    this.lanes.set(kind.name, { kind: kind as JobKind<unknown>, waiting: [], running: new Map() });
  }

  async enqueue<P>(name: string, key: string, payload: P): Promise<void> {
    const lane = this.lane(name);
    if (this.stopped || lane.waiting.some((job) => job.key === key)) return;
    lane.waiting.push({ key, payload, attempt: 0 });
    if (this.started) this.pump(lane);
  }

  async cancel(name: string, key: string): Promise<void> {
    const lane = this.lane(name);
    lane.waiting = lane.waiting.filter((job) => job.key !== key);
    lane.running.get(key)?.abort.abort();
  }

  async start(): Promise<void> {
    this.started = true;
    for (const lane of this.lanes.values()) {
      for (const { key, payload } of (await lane.kind.unfinished?.().catch((err) => (this.log(err), []))) ?? []) await this.enqueue(lane.kind.name, key, payload);
      this.pump(lane);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const running: Promise<void>[] = [];
    for (const lane of this.lanes.values()) {
      lane.waiting.length = 0;
      for (const job of lane.running.values()) {
        job.abort.abort();
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

  private pump(lane: Lane): void {
    while (!this.stopped && lane.running.size < (lane.kind.concurrency ?? 1)) {
      const next = lane.waiting.shift();
      if (!next) return;
      const abort = new AbortController();
      const context: JobContext = { signal: abort.signal, attempt: next.attempt };
      const done = lane.kind
        .run(next.payload, context)
        .catch((err) => {
          this.log(err);
          if (!abort.signal.aborted && next.attempt < lane.kind.retryLimit) lane.waiting.push({ ...next, attempt: next.attempt + 1 });
        })
        .finally(() => {
          lane.running.delete(next.key);
          this.pump(lane);
        });
      lane.running.set(next.key, { abort, done });
    }
  }
}
