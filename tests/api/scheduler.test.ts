// JobQueue.schedule (issue 38): a periodic task is a scheduled job on the job queue. In this process on a laptop it
// runs each period, never two runs at once, and not after stop; on pg-boss (PostgreSQL pass only, two queues on one
// schema standing for two nodes) each period runs once in the cluster, not once per node.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import knexFactory from 'knex';
import { InProcessJobQueue } from '../../server/jobs/in-process.js';
import { jobsSchemaOf, PgBossJobQueue } from '../../server/jobs/pg-boss.js';
import { usingPostgres } from '../support/server.js';

const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('JobQueue.schedule', () => {
  const stops: (() => Promise<void>)[] = [];
  after(async () => {
    for (const stop of stops) await stop();
  });

  test('in this process: runs each period, one run at a time, none after stop', async () => {
    const queue = new InProcessJobQueue(() => undefined);
    let runs = 0;
    let running = 0;
    let mostAtOnce = 0;
    queue.schedule('test-tick', { everyMs: 50 }, async (job) => {
      running++;
      mostAtOnce = Math.max(mostAtOnce, running);
      runs++;
      // Longer than the period: the ticks meanwhile must not pile up runs.
      await sleep(120);
      running--;
      assert.equal(job.signal.aborted, false);
    });
    let failures = 0;
    queue.schedule('test-failing', { everyMs: 50 }, async () => {
      failures++;
      throw new Error('a failed run: the next tick is its retry');
    });
    assert.deepEqual(await queue.queued(), { 'schedule.test-tick': 0, 'schedule.test-failing': 0 }, 'nothing before start');
    await queue.start();
    await sleep(1500);
    await queue.stop();
    const seen = runs;
    assert.ok(runs >= 3, `ran ${runs} times in 1.5 s`);
    assert.ok(runs <= 14, `ran ${runs} times in 1.5 s: at most one run per 120 ms`);
    assert.equal(mostAtOnce, 1, 'never two runs at once');
    assert.ok(failures >= 3, 'a failing task keeps being scheduled');
    await sleep(300);
    assert.equal(runs, seen, 'no run after stop');
  });

  if (usingPostgres) {
    test('on pg-boss, two nodes on one schema: each period runs once in the cluster', async () => {
      const schema = `ts_${crypto.randomBytes(6).toString('hex')}`;
      const nodes = [0, 1].map(() => new PgBossJobQueue({ url: POSTGRES_URL, schema, maintenanceSeconds: 1, log: () => undefined }));
      const runsBy = [0, 0];
      nodes.forEach((queue, i) =>
        queue.schedule('test-tick', { everyMs: 1000 }, async () => {
          runsBy[i]!++;
        }),
      );
      const db = knexFactory({ client: 'pg', connection: POSTGRES_URL });
      stops.push(async () => {
        await db.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [jobsSchemaOf(schema)]);
        await db.destroy();
      });
      await Promise.all(nodes.map((queue) => queue.start()));
      await sleep(7000);
      await Promise.all(nodes.map((queue) => queue.stop()));
      const jobs = (await db.withSchema(jobsSchemaOf(schema)).table('job').where({ name: 'schedule.test-tick' }).select('singleton_on', 'state')) as { singleton_on: Date; state: string }[];
      const slots = jobs.map((job) => +job.singleton_on);
      assert.equal(new Set(slots).size, slots.length, 'one job per one-second slot, whichever node sent it first');
      const total = runsBy[0]! + runsBy[1]!;
      // Seven seconds are about seven slots (one per node would make about fourteen); a loaded machine may run a few late.
      assert.ok(total >= 3 && total <= 8, `runs: ${runsBy.join(' + ')} in 7 s`);
      assert.ok(total <= jobs.length, 'no run without its own job');
    });
  }
});
