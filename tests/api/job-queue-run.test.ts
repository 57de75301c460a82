// JobQueue.run (server/jobs/): submit a job and await its result, on the laptop's in-process queue and on pg-boss
// (PostgreSQL pass only, where two queues on one schema stand for two nodes). Both must give the handler's value
// back, pass a 4xx AppError through as it was (never retried), retry a failure up to the kind's limit and then
// reject with the last error (kept in pg-boss's row for an operator), run a one-at-a-time kind one job at a time
// across every node, and cancel a job whose waiter goes away.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import knexFactory from 'knex';
import { AppError } from '../../server/http/errors.js';
import { InProcessJobQueue } from '../../server/jobs/in-process.js';
import { jobsSchemaOf, PgBossJobQueue } from '../../server/jobs/pg-boss.js';
import type { JobContext, JobKind, JobQueue } from '../../server/jobs/queue.js';
import { usingPostgres } from '../support/server.js';

const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** The kinds every queue under test registers; what their handlers saw is recorded here. */
class Kinds {
  readonly attempts: number[] = [];
  running = 0;
  mostAtOnce = 0;
  cancelledSeen = false;

  register(queue: JobQueue): void {
    const kind = <P, R>(name: string, run: (payload: P, job: JobContext) => Promise<R>, extra: Partial<JobKind<P, R>> = {}) =>
      queue.register<P, R>({ name, retryLimit: 2, leaseSeconds: 60, concurrency: 4, run, ...extra });
    kind<{ a: number; b: number }, { sum: number }>('test.add', async ({ a, b }) => ({ sum: a + b }));
    kind('test.refuse', async () => {
      this.attempts.push(-1);
      throw new AppError(409, 'test.refused', 'Refused on purpose', { why: 'a test' });
    });
    kind('test.flaky', async (_payload, job) => {
      this.attempts.push(job.attempt);
      throw new Error(`boom on attempt ${job.attempt}`);
    });
    kind<{ failures: number }, string>('test.second-time', async ({ failures }, job) => {
      if (job.attempt < failures) throw new Error('not yet');
      return `done on attempt ${job.attempt}`;
    });
    kind<{ ms: number }, number>(
      'test.exclusive',
      async ({ ms }) => {
        this.mostAtOnce = Math.max(this.mostAtOnce, ++this.running);
        await new Promise((resolve) => setTimeout(resolve, ms));
        this.running--;
        return ms;
      },
      { oneAtATime: true },
    );
    kind('test.slow', async (_payload, job) => {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 30_000);
        job.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
      });
      this.cancelledSeen = job.signal.aborted;
      job.signal.throwIfAborted();
    });
  }
}

const key = () => crypto.randomUUID();

function contract(label: string, nodes: () => Promise<{ queues: JobQueue[]; kinds: Kinds; failedRow?: (name: string) => Promise<{ state: string; output: { message?: string } } | undefined> }>) {
  describe(label, () => {
    let setup: Awaited<ReturnType<typeof nodes>>;
    const queue = (i = 0) => setup.queues[i % setup.queues.length]!;

    test('resolves with what the handler returned', async () => {
      setup = await nodes();
      assert.deepEqual(await queue().run('test.add', key(), { a: 2, b: 3 }), { sum: 5 });
    });

    test('a 4xx AppError reaches the waiter as it was, and is not retried', async () => {
      setup.kinds.attempts.length = 0;
      const err = await queue().run('test.refuse', key(), {}).then(() => undefined, (e: unknown) => e);
      assert.ok(err instanceof AppError, String(err));
      assert.deepEqual([err.status, err.code, err.message, err.details], [409, 'test.refused', 'Refused on purpose', { why: 'a test' }]);
      assert.deepEqual(setup.kinds.attempts, [-1]);
    });

    test('a failure is retried up to the kind’s limit; the last error is what the waiter and the jobs table show', async () => {
      setup.kinds.attempts.length = 0;
      const err = await queue().run('test.flaky', key(), {}).then(() => undefined, (e: unknown) => e as Error);
      assert.ok(err && !(err instanceof AppError), String(err));
      assert.match(err.message, /boom on attempt 2/);
      assert.deepEqual(setup.kinds.attempts, [0, 1, 2]);
      if (setup.failedRow) {
        const row = await setup.failedRow('test.flaky');
        assert.equal(row?.state, 'failed');
        assert.equal(row?.output.message, 'boom on attempt 2');
      }
      assert.equal(await queue().run('test.second-time', key(), { failures: 1 }), 'done on attempt 1');
    });

    test('a one-at-a-time kind runs its jobs one after another, whichever node they were sent to', async () => {
      setup.kinds.mostAtOnce = 0;
      const done = await Promise.all([0, 1, 2, 3].map((i) => queue(i).run<{ ms: number }, number>('test.exclusive', key(), { ms: 300 + i })));
      assert.deepEqual(done, [300, 301, 302, 303]);
      assert.equal(setup.kinds.mostAtOnce, 1);
    });

    test('a waiter that goes away cancels its job where it runs', async () => {
      const abort = new AbortController();
      const waiting = queue().run('test.slow', key(), {}, { signal: abort.signal });
      await new Promise((resolve) => setTimeout(resolve, 1500));
      abort.abort(new Error('client went away'));
      await assert.rejects(waiting, /client went away/);
      const started = Date.now();
      while (!setup.kinds.cancelledSeen && Date.now() - started < 10_000) await new Promise((resolve) => setTimeout(resolve, 100));
      assert.ok(setup.kinds.cancelledSeen, 'the handler saw the cancel');
    });
  });
}

describe('JobQueue.run', () => {
  const stops: (() => Promise<void>)[] = [];
  after(async () => {
    for (const stop of stops) await stop();
  });

  contract('in this process (the laptop)', async () => {
    const kinds = new Kinds();
    const queue = new InProcessJobQueue(() => undefined);
    kinds.register(queue);
    await queue.start();
    stops.push(() => queue.stop());
    return { queues: [queue], kinds };
  });

  if (usingPostgres) {
    contract('on pg-boss, two nodes on one schema', async () => {
      const schema = `tq_${crypto.randomBytes(6).toString('hex')}`;
      const kinds = new Kinds();
      const queues = [0, 1].map(() => new PgBossJobQueue({ url: POSTGRES_URL, schema, maintenanceSeconds: 1, log: () => undefined }));
      for (const queue of queues) kinds.register(queue);
      await Promise.all(queues.map((queue) => queue.start()));
      const db = knexFactory({ client: 'pg', connection: POSTGRES_URL });
      stops.push(async () => {
        await Promise.all(queues.map((queue) => queue.stop()));
        await db.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [jobsSchemaOf(schema)]);
        await db.destroy();
      });
      const failedRow = (name: string) => db.withSchema(jobsSchemaOf(schema)).table('job').where({ name, state: 'failed' }).first('state', 'output');
      return { queues, kinds, failedRow };
    });
  }
});
