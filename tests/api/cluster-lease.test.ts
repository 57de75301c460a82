// The central tier's leases and line (server/jobs/pg-boss.ts, server/audio/jobs.service.ts): two real server
// processes on one PostgreSQL schema behind the round-robin proxy (tests/support/cluster.ts), with a short
// JOB_LEASE_SECONDS. A transcription that lasts well beyond its lease keeps it (renewed while it runs): it runs once,
// on one node, and is stored once. Jobs waiting for a worker have the same queue_position whichever node is asked.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import knexFactory, { type Knex } from 'knex';
import { usingPostgres } from '../support/server.js';
import { ApiClient } from '../support/client.js';
import { POSTGRES_URL, startCluster, type Cluster } from '../support/cluster.js';
import { startFakeModel, type FakeModel } from '../support/fake-model.js';
import { form } from './media-fixtures.js';
import { toneWav } from './audio-fixtures.js';

const ANSWER = { text: 'a long call', language: 'english', segments: [{ start: 0, end: 1, text: 'a long call' }] };
const LEASE_SECONDS = 5;
/** How long the route takes to answer: well beyond the lease, so a lease never renewed would be lost twice over. */
const CALL_MS = 14_000;
/** Transcription jobs one node runs at once (jobs.service.ts CONCURRENCY). */
const PER_NODE = 4;

/** Polls `read` every 100 ms until `ok` holds; fails naming `what` after `seconds`. */
async function waitFor<T>(what: string, read: () => Promise<T>, ok: (value: T) => boolean, seconds = 20): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface JobView {
  id: number;
  state: string;
  queue_position: number | null;
}

describe('leases and the line of transcription jobs on two nodes', { skip: !usingPostgres && 'a cluster runs on PostgreSQL; checked in the PostgreSQL pass' }, () => {
  let cluster: Cluster;
  let fake: FakeModel;
  let db: Knex;
  let api: ApiClient;
  let token: string;
  const audio = toneWav(0.5);

  const submit = async () => {
    const created = await api.post('/api/audio/transcribe', { token, form: form({ async: 'true' }, { name: 'call.wav', data: audio }) });
    assert.equal(created.status, 202, created.text);
    return created.body.data.id as number;
  };
  const jobOn = async (url: string, id: number) => (await new ApiClient(url).get(`/api/audio/jobs/${id}`, { token })).body.data as JobView;
  const row = async (id: number) => (await db('audio_jobs').where({ id }).first('state', 'runner', 'attempts')) as { state: string; runner: string; attempts: number };
  const transcriptionRequests = () => fake.requests.filter((r) => r.path.endsWith('/audio/transcriptions')).length;

  before(async () => {
    fake = await startFakeModel({ transcription: ANSWER });
    cluster = await startCluster(2, { JOB_LEASE_SECONDS: String(LEASE_SECONDS), JOB_MAINTENANCE_SECONDS: '1' });
    db = knexFactory({ client: 'pg', connection: POSTGRES_URL, searchPath: [cluster.schema] });
    api = new ApiClient(cluster.url);
    const admin = await api.login('admin', 'admin-pass-123');
    const route = await api.post('/api/ai/routes', { token: admin, body: { kind: 'audio', name: 'Cloud STT', provider: 'openai-compatible', base_url: fake.baseUrl, model: 'whisper-1', is_local: false } });
    assert.equal(route.status, 201, route.text);
    const user = await api.post('/api/system/users', { token: admin, body: { username: 'caller', password: 'caller-pass-1', full_name: 'Caller', role: 'employee' } });
    assert.equal(user.status, 201, user.text);
    token = await api.login('caller', 'caller-pass-1');
  });
  after(async () => {
    await db?.destroy();
    await cluster?.close();
    await fake?.close();
  });

  test('a transcription lasting well beyond JOB_LEASE_SECONDS keeps its lease: run once, on one node, stored once', async () => {
    fake.behave({ transcription: ANSWER, transcriptionDelayMs: CALL_MS });
    const sent = transcriptionRequests();
    const id = await submit();
    await waitFor('the job to run', () => jobOn(cluster.url, id), (job) => job.state === 'running');
    const { runner } = await row(id);
    const done = await waitFor('the job to end', () => jobOn(cluster.url, id), (job) => job.state !== 'queued' && job.state !== 'running', 60);
    assert.equal(done.state, 'done', JSON.stringify(done));
    const stored = await row(id);
    assert.equal(stored.attempts, 1, 'taken up once: no other node took it over when the first lease would have run out');
    assert.equal(stored.runner, runner, 'finished by the node that started it');
    assert.equal(transcriptionRequests() - sent, 1, 'the audio was sent to the route once');
    assert.equal(Number((await db('audio_transcriptions').where({ job_id: id }).count({ n: '*' }))[0]!.n), 1, 'stored once');
    const queueRow = async () =>
      (await db.withSchema(`${cluster.schema}_jobs`).from('job').where({ name: 'audio.transcription' }).whereRaw('data->>? = ?', ['job_id', String(id)]).first('state', 'retry_count')) as { state: string; retry_count: number };
    // The handler's last steps (the listeners of a new transcription) end before the queue's row is completed.
    const ended = await waitFor('the queue to complete the job', queueRow, (job) => job.state !== 'active', 10);
    assert.deepEqual(ended, { state: 'completed', retry_count: 0 }, 'the queue never handed the job back');
  });

  test('jobs waiting for a worker have the same queue_position on every node, in the order they came', async () => {
    fake.behave({ holdTranscription: true });
    const running = PER_NODE * cluster.nodes.length;
    const ids: number[] = [];
    for (let i = 0; i < running + 3; i++) ids.push(await submit());
    const waiting = ids.slice(running);
    // Every worker of both nodes holds a job; the last three wait in the queue.
    await waitFor(
      'every worker to hold a job',
      async () => (await db('audio_jobs').whereIn('id', ids).where({ state: 'running' }).count({ n: '*' }))[0]!.n,
      (n) => Number(n) === running,
      40,
    );
    for (const node of cluster.nodes) {
      const client = new ApiClient(node.url);
      const places = await Promise.all(waiting.map(async (id) => (await jobOn(node.url, id)).queue_position));
      assert.deepEqual(places, [1, 2, 3], `the places read through ${node.url}`);
      const listed = (await client.get('/api/audio/jobs?state=queued', { token })).body.data.items as JobView[];
      assert.deepEqual(
        listed.map((job) => [job.id, job.queue_position]),
        [...waiting].reverse().map((id, i) => [id, waiting.length - i]),
        `the queued list read through ${node.url}`,
      );
      const runningJob = await jobOn(node.url, ids[0]!);
      assert.deepEqual([runningJob.state, runningJob.queue_position], ['running', null]);
    }
    // The first waiting job leaves the line (cancelled): the others move up, on every node.
    const cancelled = await api.delete(`/api/audio/jobs/${waiting[0]}`, { token });
    assert.equal(cancelled.status, 200, cancelled.text);
    for (const node of cluster.nodes) {
      const places = await Promise.all(waiting.slice(1).map(async (id) => (await jobOn(node.url, id)).queue_position));
      assert.deepEqual(places, [1, 2], `the places read through ${node.url} after a cancel`);
    }
    for (const id of ids) await api.delete(`/api/audio/jobs/${id}`, { token });
    fake.behave({ transcription: ANSWER });
  });
});
