// The local chat model (provider local-llama): a tiny GGUF model of the real format, run through the real
// node-llama-cpp worker over HTTP. It understands nothing, so what is checked is the contract: the stream, which
// route ran, abort, the line and its places, the idle unload, valid structured output, the memory check, fallback.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { startTestServer, type TestServer } from '../support/server.js';
import { until } from '../support/until.js';
import { startFakeModel, type FakeModel } from '../support/fake-model.js';
import { writeOversizedLlamaHeader, writeTinyLlamaModel } from '../support/tiny-llama-model.js';
import { chatOk } from './workbench.fixtures.js';

type Event = { type: string; content?: string; position?: number; route?: { id: number | null; name: string; model: string; local: boolean }; message?: string };

/** An open chat stream read event by event. */
interface OpenStream {
  status: number;
  next(): Promise<Event | undefined>;
  rest(): Promise<Event[]>;
  abort(): void;
}

describe('local chat model (local-llama) /api/ai', () => {
  let ts: TestServer;
  let remote: FakeModel;
  let user: { id: number; token: string };
  const MODEL = 'tiny-chat.gguf';
  const admin = () => ts.adminToken;

  const setConfig = async (configs: Record<string, unknown>) => {
    const res = await ts.api.put('/api/system/config', { token: admin(), body: { configs } });
    assert.equal(res.status, 200, res.text);
  };
  const addRoute = async (body: Record<string, unknown>) => {
    const res = await ts.api.post('/api/ai/routes', { token: admin(), body: { kind: 'chat', provider: 'local-llama', name: 'On this laptop', model: MODEL, ...body } });
    assert.equal(res.status, 201, res.text);
    return res.body.data as { id: number; is_local: boolean; base_url: string };
  };
  const clearRoutes = async () => {
    for (const route of (await ts.api.get('/api/ai/routes', { token: admin() })).body.data) await ts.api.delete(`/api/ai/routes/${route.id}`, { token: admin() });
  };
  const routeStatus = async (id: number) => ((await ts.api.get('/api/ai/routes', { token: admin() })).body.data as { id: number; local_model?: Record<string, unknown> }[]).find((r) => r.id === id)!.local_model!;
  const lastCalls = async (n: number) => (await ts.api.get(`/api/ai/calls?size=${n}`, { token: admin() })).body.data.items;

  async function open(message: string): Promise<OpenStream> {
    const controller = new AbortController();
    const res = await fetch(`${ts.url}/api/ai-chat/message`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message }),
      signal: controller.signal,
    });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    const next = async (): Promise<Event | undefined> => {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          assert.match(frame, /^data: /);
          return JSON.parse(frame.slice(6)) as Event;
        }
        const read = await reader.read();
        if (read.done) return undefined;
        buffer += decoder.decode(read.value, { stream: true });
      }
    };
    const rest = async () => {
      const events: Event[] = [];
      for (let e = await next(); e; e = await next()) events.push(e);
      return events;
    };
    return { status: res.status, next, rest, abort: () => controller.abort() };
  }

  before(async () => {
    ts = await startTestServer();
    remote = await startFakeModel({ chunks: ['From', ' the cloud'] });
    user = await ts.user();
    await fs.mkdir(path.join(ts.dataDir, 'models'), { recursive: true });
    await writeTinyLlamaModel(path.join(ts.dataDir, 'models', MODEL));
    await setConfig({ local_llm_max_tokens: 24 });
  });
  after(async () => {
    await ts?.close();
    await remote?.close();
  });

  test('installed GGUF files are listed with their metadata; uploads are resumable and checked', async () => {
    const file = await fs.readFile(path.join(ts.dataDir, 'models', MODEL));
    const list = await ts.api.get('/api/ai/models', { token: admin() });
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(
      list.body.data.map((m: Record<string, unknown>) => ({ ...m, modified_at: undefined })),
      [
        {
          name: MODEL,
          location: 'data',
          size: file.length,
          sha256: crypto.createHash('sha256').update(file).digest('hex'),
          modified_at: undefined,
          architecture: 'llama',
          model_name: 'tiny-llama-test',
          context_length: 2048,
          quantization: 'F32',
          parameters: list.body.data[0].parameters,
          error: null,
        },
      ],
    );
    assert.ok(list.body.data[0].parameters > 50_000);
    const employee = await ts.api.get('/api/ai/models', { token: user.token });
    assert.equal(employee.status, 403);

    // A copy under another name, in two chunks, with its sha256 given up front.
    const init = await ts.api.post('/api/ai/models', { token: admin(), body: { filename: 'copy.gguf', file_size: file.length, sha256: crypto.createHash('sha256').update(file).digest('hex') } });
    assert.equal(init.status, 201, init.text);
    const { upload_id: uploadId, chunk_size: chunkSize, chunk_count: chunks, chunk_url: chunkUrl, complete_url: completeUrl } = init.body.data;
    for (let i = 0; i < chunks; i++) {
      const sent = await ts.api.post(`${chunkUrl}?upload_id=${uploadId}&chunk_index=${i}`, { token: admin(), raw: new Uint8Array(file.subarray(i * chunkSize, (i + 1) * chunkSize)), headers: { 'content-type': 'application/octet-stream' } });
      assert.equal(sent.status, 200, sent.text);
    }
    const done = await ts.api.post(completeUrl, { token: admin() });
    assert.equal(done.status, 201, done.text);
    assert.deepEqual([done.body.data.name, done.body.data.architecture, done.body.data.context_length], ['copy.gguf', 'llama', 2048]);
    assert.equal((await ts.api.delete('/api/ai/models/copy.gguf', { token: admin() })).status, 200);

    const junk = await ts.api.post('/api/ai/models', { token: admin(), body: { filename: 'junk.gguf', file_size: 11 } });
    await ts.api.post(`/api/media/upload/chunk?upload_id=${junk.body.data.upload_id}&chunk_index=0`, { token: admin(), raw: new TextEncoder().encode('hello world'), headers: { 'content-type': 'application/octet-stream' } });
    const refused = await ts.api.post(junk.body.data.complete_url, { token: admin() });
    assert.equal(refused.status, 400, refused.text);
    assert.match(refused.body.message, /not a GGUF model/);
    // The magic and nothing else: the header reader trips over it, which is said in words, not as its TypeError.
    const cut = await ts.api.post('/api/ai/models', { token: admin(), body: { filename: 'cut.gguf', file_size: 8 } });
    await ts.api.post(`/api/media/upload/chunk?upload_id=${cut.body.data.upload_id}&chunk_index=0`, { token: admin(), raw: new TextEncoder().encode('GGUFxxxx'), headers: { 'content-type': 'application/octet-stream' } });
    const cutRefused = await ts.api.post(cut.body.data.complete_url, { token: admin() });
    assert.equal(cutRefused.status, 400, cutRefused.text);
    assert.doesNotMatch(cutRefused.body.message, /Cannot read properties|undefined/, cutRefused.body.message);
    const badName = await ts.api.post('/api/ai/models', { token: admin(), body: { filename: 'model.bin', file_size: 11 } });
    assert.equal(badName.status, 400);
  });

  test('a local route needs no URL, is local, and says it can run with its memory need', async () => {
    const route = await addRoute({});
    assert.deepEqual([route.base_url, route.is_local], ['', true]);
    const status = await routeStatus(route.id);
    assert.equal(status.present, true);
    assert.equal(status.loadable, true);
    assert.equal(status.reason, null);
    assert.ok((status.memory_bytes as number) > 0 && (status.memory_bytes as number) < 200 * 1024 ** 2, `memory need ${status.memory_bytes}`);
    const audio = await ts.api.post('/api/ai/routes', { token: admin(), body: { kind: 'audio', provider: 'local-llama', name: 'x', model: MODEL } });
    assert.equal(audio.status, 400, 'local-llama is for chat routes only');
  });

  test('the coach streams the reply from the local model, says the route ran here, and logs the call', async () => {
    const stream = await open('你好，怎么介绍这个基金？');
    assert.equal(stream.status, 200);
    const events = await stream.rest();
    const texts = events.filter((e) => e.type === 'text');
    assert.ok(texts.length > 0, JSON.stringify(events));
    assert.deepEqual(events.at(-1), { type: 'done', route: { id: events.at(-1)!.route!.id, name: 'On this laptop', model: MODEL, local: true } });
    const [call] = await lastCalls(1);
    assert.deepEqual([call.status, call.route_name, call.completion_tokens], ['ok', 'On this laptop', 24], 'the reply ends at local_llm_max_tokens');
    assert.ok(call.prompt_tokens > 10);
    assert.equal(call.reply_chars, texts.map((e) => e.content).join('').length);
    const history = await ts.api.get('/api/ai-chat/history', { token: user.token });
    assert.equal(history.body.data.messages.at(-1).role, 'assistant');
  });

  test('a client that leaves stops the generation, and the next reply runs', async () => {
    await setConfig({ local_llm_max_tokens: 30_000 });
    const stream = await open('Talk for a long time');
    assert.equal((await stream.next())?.type, 'text');
    stream.abort();
    await until(async () => (await lastCalls(1))[0].status === 'aborted', 'the aborted call to be logged');
    await setConfig({ local_llm_max_tokens: 24 });
    const after = await (await open('Again')).rest();
    assert.equal(after.at(-1)?.type, 'done');
  });

  test('one reply at a time: the next waits in line and is told its place', async () => {
    await setConfig({ local_llm_max_tokens: 30_000 });
    const first = await open('First in line');
    assert.equal((await first.next())?.type, 'text');
    const second = await open('Second in line');
    assert.deepEqual(await second.next(), { type: 'queued', position: 1 });
    first.abort();
    await setConfig({ local_llm_max_tokens: 24 });
    // The second reply started before the setting changed: it runs until it is stopped too.
    assert.equal((await second.next())?.type, 'text');
    second.abort();
    await until(async () => (await lastCalls(2)).every((c: { status: string }) => c.status === 'aborted'), 'both calls to end');
  });

  test('the model stays loaded between replies and is unloaded after the idle period', async () => {
    await setConfig({ local_llm_idle_unload_seconds: 1 });
    const [route] = (await ts.api.get('/api/ai/routes', { token: admin() })).body.data;
    await (await open('Load it')).rest();
    assert.equal((await routeStatus(route.id)).loaded, true);
    await until(async () => (await routeStatus(route.id)).loaded === false, 'the idle model to be unloaded');
    // And loads again on demand.
    const events = await (await open('Back again')).rest();
    assert.equal(events.at(-1)?.type, 'done');
    await setConfig({ local_llm_idle_unload_seconds: 300 });
  });

  test('two replies at once on two model files: the second model is loaded once the first reply ends', async () => {
    await setConfig({ local_llm_concurrency: 2, local_llm_max_tokens: 30_000 });
    await fs.copyFile(path.join(ts.dataDir, 'models', MODEL), path.join(ts.dataDir, 'models', 'other.gguf'));
    const [first] = (await ts.api.get('/api/ai/routes', { token: admin() })).body.data;
    const other = await addRoute({ name: 'Other file', model: 'other.gguf', priority: 200 });
    const onFirst = await open('On the first file');
    assert.equal((await onFirst.next())?.type, 'text');
    // The other file's route goes first now: its reply needs the model swapped, which waits for the first reply.
    await ts.api.put(`/api/ai/routes/${other.id}`, { token: admin(), body: { priority: 1 } });
    await setConfig({ local_llm_max_tokens: 24 });
    // Its stream opens with its first token, after the swap: not awaited before the first reply is stopped.
    const onOther = open('On the other file');
    await new Promise((resolve) => setTimeout(resolve, 200));
    onFirst.abort();
    const events = await (await onOther).rest();
    assert.deepEqual(events.at(-1), { type: 'done', route: { id: other.id, name: 'Other file', model: 'other.gguf', local: true } });
    assert.equal((await routeStatus(other.id)).loaded, true);
    assert.equal((await routeStatus(first.id)).loaded, false);
    await ts.api.delete(`/api/ai/routes/${other.id}`, { token: admin() });
    await setConfig({ local_llm_concurrency: 1 });
  });

  test('a table skill on the local route returns valid JSON enforced by the schema', async () => {
    await setConfig({ local_llm_max_tokens: 400 });
    const reply = await chatOk(ts, user.token, { message: 'Extract the totals.', skill_key: 'batch_extraction', documents: [{ name: 'a.txt', content: 'Invoice 1 total 5' }] });
    const artifact = reply.events.find((e) => e.type === 'artifact')?.artifact;
    assert.ok(artifact, `a table artifact: ${JSON.stringify(reply.events)}`);
    assert.equal(artifact.kind, 'table');
    assert.ok(Array.isArray(artifact.content.columns) && artifact.content.columns.length >= 1);
    assert.ok(Array.isArray(artifact.content.rows));
    assert.doesNotThrow(() => JSON.parse(reply.text), 'the streamed reply itself is JSON');
    await setConfig({ local_llm_max_tokens: 24 });
  });

  test('a missing model file: the route says so, and the reply falls back to the remote route', async () => {
    await clearRoutes();
    const missing = await addRoute({ name: 'Missing model', model: 'not-here.gguf', priority: 50 });
    await ts.api.post('/api/ai/routes', { token: admin(), body: { kind: 'chat', provider: 'openai-compatible', name: 'Cloud', base_url: remote.baseUrl, model: 'cloud-model', priority: 10, is_local: false } });
    const status = await routeStatus(missing.id);
    assert.deepEqual([status.present, status.loadable], [false, false]);
    assert.match(status.reason as string, /not-here\.gguf is not in DATA_DIR\/models/);

    // Priority alone puts the cloud first; local-first puts the local route first, which fails over to the cloud.
    await setConfig({ llm_local_first: true });
    const events = await (await open('Anyone?')).rest();
    assert.equal(events.filter((e) => e.type === 'text').map((e) => e.content).join(''), 'From the cloud');
    assert.deepEqual(events.at(-1)?.route, { id: events.at(-1)!.route!.id, name: 'Cloud', model: 'cloud-model', local: false });
    const [second, first] = await lastCalls(2);
    assert.deepEqual([first.route_name, first.status, first.attempt, second.route_name, second.status, second.attempt], ['Missing model', 'failed', 1, 'Cloud', 'ok', 2]);
    await setConfig({ llm_local_first: false });
  });

  test('a model too big for the free memory is refused with the reason, not loaded', async () => {
    await clearRoutes();
    await writeOversizedLlamaHeader(path.join(ts.dataDir, 'models', 'huge.gguf'));
    const route = await addRoute({ name: 'Huge', model: 'huge.gguf' });
    const status = await routeStatus(route.id);
    assert.deepEqual([status.present, status.loadable], [true, false]);
    assert.ok((status.memory_bytes as number) > 100 * 1024 ** 3);
    assert.match(status.reason as string, /not enough free memory for huge\.gguf: it needs about \d+\.\d GB/);
    const res = await ts.api.post('/api/ai-chat/message', { token: user.token, body: { message: 'Hi' } });
    assert.deepEqual([res.status, res.body.error], [500, 'model_route_failed']);
    assert.match(res.body.message, /not enough free memory/);
    const test = await ts.api.post(`/api/ai/routes/${route.id}/test`, { token: admin() });
    assert.deepEqual([test.body.data.ok, /not enough free memory/.test(test.body.data.error)], [false, true]);
  });
});
