// The job queue as the metrics see it (trainbench_jobs_*): every run of a kind counted where it runs, started,
// succeeded or failed, and how many run now. A decorator, so neither queue implementation knows about metrics.
import type { JobContext, JobKind, JobQueue } from './queue.js';
import { scheduledKind } from './queue.js';
import type { AppMetrics } from '../metrics/metrics.js';

function counted<A extends unknown[], R>(metrics: AppMetrics, kind: string, run: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args) => {
    const labels = { kind };
    metrics.jobsStarted.inc(labels);
    metrics.jobsRunning.inc(labels);
    try {
      const value = await run(...args);
      metrics.jobsCompleted.inc(labels);
      return value;
    } catch (err) {
      metrics.jobsFailed.inc(labels);
      throw err;
    } finally {
      metrics.jobsRunning.dec(labels);
    }
  };
}

export function meteredJobQueue(queue: JobQueue, metrics: AppMetrics): JobQueue {
  return {
    register: <P, R>(kind: JobKind<P, R>) => queue.register<P, R>({ ...kind, run: counted(metrics, kind.name, kind.run) }),
    schedule: (name, every, task) => queue.schedule(name, every, counted<[JobContext], void>(metrics, scheduledKind(name), task)),
    queued: () => queue.queued(),
    enqueue: (name, key, payload) => queue.enqueue(name, key, payload),
    run: (name, key, payload, options) => queue.run(name, key, payload, options),
    cancel: (name, key) => queue.cancel(name, key),
    start: () => queue.start(),
    stop: () => queue.stop(),
  };
}
