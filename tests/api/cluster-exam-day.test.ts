// Exam day on the central tier (issue 33, item 4), the scenario of `npm run bench -- exam-day` with a small N: two
// nodes on one PostgreSQL schema and one bucket behind a round-robin proxy; candidates log in, start, autosave on a
// compressed schedule and submit in its last minute (tests/support/exam-day.ts). First with both nodes up and every
// fifth candidate submitting twice at once through both nodes; then a second exam day on the same cluster with node 0
// killed (SIGKILL) in the middle: no acknowledged autosave is lost, every candidate ends with exactly one record whose
// score is right, and a submit sent again (after a failure, or twice at once by every fifth) answers that same record;
// then, node 0 started again, node 1 killed among the last minute's submits.
// Most candidates start with a token issued for them: a login is an argon2 hash, seconds each on a loaded machine.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { usingPostgres } from '../support/server.js';
import { startCluster, type Cluster } from '../support/cluster.js';
import { EXAM_DAY_ENV, runExamDay } from '../support/exam-day.js';

const day = { candidates: 40, seconds: 8, autosaves: 3, questions: 5, connections: 16, logins: 6, log: (line: string) => console.log(line) };

describe('exam day on two nodes behind a load balancer', { skip: !usingPostgres && 'a cluster runs on PostgreSQL and a bucket; checked in the PostgreSQL pass' }, () => {
  let cluster: Cluster;

  before(async () => {
    cluster = await startCluster(2, { ...EXAM_DAY_ENV });
  });
  after(async () => {
    await cluster?.close();
  });

  test('everyone logs in, starts, autosaves and submits; a double submit through both nodes makes one record', async () => {
    const result = await runExamDay(cluster, { ...day, doubleSubmitEvery: 5 }, 'calm');
    assert.deepEqual(result.problems, []);
    assert.equal(result.latencies.login.length, day.logins);
    assert.equal(result.latencies.start.length, day.candidates);
    assert.equal(result.latencies.autosave.length, day.candidates * day.autosaves);
    assert.equal(result.latencies.submit.length, day.candidates + day.candidates / 5);
  });

  test('node 0 killed with SIGKILL in the middle: no acknowledged autosave lost, one record each with the right score', async () => {
    const result = await runExamDay(cluster, { ...day, logins: 0, killAt: 0.5, doubleSubmitEvery: 5 }, 'kill');
    assert.equal(cluster.nodes[0]!.child.signalCode, 'SIGKILL');
    assert.deepEqual(result.problems, []);
    assert.equal(result.latencies.submit.length, day.candidates + day.candidates / 5);
  });

  test('node 0 back, node 1 killed during the last minute\'s submits: each submit cut there and sent again answers the one record', async () => {
    await cluster.restart(0);
    // The last minute of 30 is the last 1/30 of the day: the kill lands among the submits.
    const result = await runExamDay(cluster, { ...day, logins: 0, killAt: 0.985, killNode: 1 }, 'burst');
    assert.equal(cluster.nodes[1]!.child.signalCode, 'SIGKILL');
    assert.deepEqual(result.problems, []);
    assert.equal(result.latencies.submit.length, day.candidates);
  });
});
