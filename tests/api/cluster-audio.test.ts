// Transcription jobs on two nodes (server/audio/jobs.service.ts on the job queue): two real server processes on one
// PostgreSQL schema and one s3rver bucket behind the round-robin proxy (tests/support/cluster.ts). The speech route
// is the fake OpenAI-compatible server, which can hold a transcription open for as long as a test needs a job to
// run. A job submitted on one node is run by whichever node claims it, read and followed from both; a node killed
// with SIGKILL mid-job loses its lease and the other finishes the job, storing it once; a cancel sent to the node that
// is not running the job stops it where it runs; no uploaded audio stays on a node's disk or in the bucket.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { usingPostgres } from '../support/server.js';
import { ApiClient } from '../support/client.js';
import { POSTGRES_URL, startCluster, userFilesIn, type Cluster } from '../support/cluster.js';
import { stopCli } from '../support/cli.js';
import { startFakeModel, type FakeModel } from '../support/fake-model.js';
import { form } from './media-fixtures.js';
import { toneWav } from './audio-fixtures.js';

const ANSWER = { text: 'hello from the cluster', language: 'english', segments: [{ start: 0, end: 1, text: 'hello from the cluster' }] };

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

/** The events of a job's stream (GET /api/audio/jobs/{id}/events) on one node, until the stream ends. */
async function followEvents(url: string, token: string, id: number): Promise<{ type: string; job: { state: string } }[]> {
  const res = await fetch(`${url}/api/audio/jobs/${id}/events`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(40_000) });
  assert.equal(res.status, 200);
  const text = await res.text();
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => JSON.parse(block.slice('data: '.length)));
}

describe('transcription jobs on two nodes', { skip: !usingPostgres && 'a cluster runs on PostgreSQL and a bucket; checked in the PostgreSQL pass' }, () => {
  let cluster: Cluster;
  let fake: FakeModel;
  let db: Knex;
  let api: ApiClient;
  let token: string;
  const audio = toneWav(0.5);

  const submit = (fields: Record<string, string> = { async: 'true' }) => api.post('/api/audio/transcribe', { token, form: form(fields, { name: 'call.wav', data: audio }) });
  const jobOn = async (url: string, id: number) => (await new ApiClient(url).get(`/api/audio/jobs/${id}`, { token })).body.data as { state: string; percent: number; transcription_id: number | null; error: unknown };
  const row = async (id: number) => (await db('audio_jobs').where({ id }).first('state', 'runner', 'attempts', 'transcription_id')) as { state: string; runner: string; attempts: number; transcription_id: number | null };
  /** The index of the node running the job (its runner names its DATA_DIR). */
  const runnerOf = async (id: number) => {
    const { runner } = await row(id);
    const index = cluster.dataDirs.findIndex((dir) => runner.endsWith(`:${dir}`));
    assert.ok(index >= 0, `runner ${runner} is one of the nodes`);
    return index;
  };
  const transcriptionsOf = async (jobId: number) => Number((await db('audio_transcriptions').where({ job_id: jobId }).count({ n: '*' }))[0]!.n);
  const runningJob = async () => {
    const created = await submit();
    assert.equal(created.status, 202, created.text);
    const id = created.body.data.id as number;
    await waitFor('the job to run', () => jobOn(cluster.url, id), (job) => job.state === 'running');
    return id;
  };

  before(async () => {
    fake = await startFakeModel({ transcription: ANSWER });
    cluster = await startCluster(2, { JOB_LEASE_SECONDS: '5', JOB_MAINTENANCE_SECONDS: '1' });
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

  test('a job submitted through the proxy is finished, read and followed from both nodes; synchronous requests wait for theirs wherever it runs', async () => {
    const created = await submit();
    assert.equal(created.status, 202, created.text);
    const id = created.body.data.id as number;
    for (const node of cluster.nodes) {
      const done = await waitFor(`the job on ${node.url}`, () => jobOn(node.url, id), (job) => job.state === 'done');
      assert.equal(done.percent, 100);
      const transcription = await new ApiClient(node.url).get(`/api/audio/transcriptions/${done.transcription_id}`, { token });
      assert.equal(transcription.status, 200, transcription.text);
      assert.equal(transcription.body.data.text, ANSWER.text);
      const events = await followEvents(node.url, token, id);
      assert.deepEqual(events.map((e) => e.type), ['done'], 'a finished job’s stream is its last event');
      const listed = await new ApiClient(node.url).get('/api/audio/jobs', { token });
      assert.ok((listed.body.data.items as { id: number }[]).some((job) => job.id === id));
    }
    // Each answers with its own transcription, whichever node ran it (the proxy alternates the requests).
    const answers = await Promise.all([1, 2, 3, 4].map(() => submit({})));
    for (const answer of answers) assert.deepEqual([answer.status, answer.body.data.text], [200, ANSWER.text], answer.text);
    assert.equal(new Set(answers.map((a) => a.body.data.id)).size, 4);
  });

  test('a node running a transcription is killed with SIGKILL: the other node takes it over and stores it once', async () => {
    fake.behave({ holdTranscription: true });
    const id = await runningJob();
    const dead = await runnerOf(id);
    const survivor = cluster.nodes[1 - dead]!;
    // Followed on the survivor from before the kill to the end.
    const events = followEvents(survivor.url, token, id);
    await stopCli(cluster.nodes[dead]!.child, 'SIGKILL');
    fake.behave({ transcription: ANSWER });
    const done = await waitFor('the survivor to finish the job', () => jobOn(survivor.url, id), (job) => job.state !== 'queued' && job.state !== 'running', 30);
    assert.equal(done.state, 'done', JSON.stringify(done));
    const stored = await row(id);
    assert.equal(stored.runner.endsWith(`:${cluster.dataDirs[1 - dead]}`), true, 'run by the survivor');
    assert.equal(stored.attempts, 2, 'taken up a second time');
    assert.equal(await transcriptionsOf(id), 1, 'stored once');
    const seen = await events;
    assert.equal(seen.at(-1)!.type, 'done');
    assert.ok(seen.slice(0, -1).every((e) => e.type === 'progress'));
    await cluster.restart(dead);
  });

  test('a cancel sent to the node that is not running the job stops it where it runs', async () => {
    fake.behave({ holdTranscription: true });
    const aborted = fake.aborted;
    const id = await runningJob();
    const running = await runnerOf(id);
    const [runner, other] = [cluster.nodes[running]!, cluster.nodes[1 - running]!];
    const events = followEvents(runner.url, token, id);
    const cancelled = await new ApiClient(other.url).delete(`/api/audio/jobs/${id}`, { token });
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.equal(cancelled.body.data.state, 'cancelled');
    // The runner sees the cancel within a poll of the queue and aborts its request to the route.
    await waitFor('the route request to be aborted', async () => fake.aborted, (count) => count > aborted, 10);
    assert.equal((await events).at(-1)!.type, 'cancelled');
    for (const node of cluster.nodes) assert.equal((await jobOn(node.url, id)).state, 'cancelled');
    assert.equal(await transcriptionsOf(id), 0, 'nothing stored');
    const again = await api.delete(`/api/audio/jobs/${id}`, { token });
    assert.deepEqual([again.status, again.body.error], [409, 'audio.job_finished']);
    fake.behave({ transcription: ANSWER });
  });

  test('no uploaded audio is left on either node’s disk or in the bucket', async () => {
    await waitFor('the bucket to hold no job audio', async () => ((await fs.readdir(cluster.s3.directory, { recursive: true })) as string[]).filter((name) => name.includes(path.join('audio', 'jobs'))), (left) => left.length === 0, 10);
    for (const dir of cluster.dataDirs) assert.deepEqual(await userFilesIn(dir), [], `left in ${dir}`);
  });
});
