// Models on a cluster (docs/storage.md, "Models"): a model an admin installs through one node is stored in the bucket,
// listed by every node with the sha256 and description recorded when it was stored, and run by another node from its
// own cache (DATA_DIR/cache/models/<sha256><ext>, fetched at the first run); no node keeps any other model file.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { usingPostgres } from '../support/server.js';
import { ApiClient } from '../support/client.js';
import { startCluster, type Cluster } from '../support/cluster.js';
import { writeTinyLlamaModel } from '../support/tiny-llama-model.js';
import { writeTinyWhisperModel } from '../support/tiny-whisper-model.js';
import { CHUNK } from './media-fixtures.js';

const digest = (data: Uint8Array) => crypto.createHash('sha256').update(data).digest('hex');

describe('models installed on one node of a cluster', { skip: !usingPostgres && 'a cluster runs on PostgreSQL and a bucket; checked in the PostgreSQL pass' }, () => {
  let cluster: Cluster;
  let a: ApiClient;
  let b: ApiClient;
  let token: string;
  let chat: Buffer;
  let whisper: Buffer;

  /** Installs a model through node `api` in resumable chunks, as the admin screen does. */
  async function install(api: ApiClient, shelf: '/api/audio/models' | '/api/ai/models', filename: string, bytes: Buffer) {
    const init = await api.post(shelf, { token, body: { filename, file_size: bytes.length, sha256: digest(bytes) } });
    assert.equal(init.status, 201, init.text);
    const { upload_id: uploadId, chunk_count: chunks, chunk_url: chunkUrl, complete_url: completeUrl } = init.body.data;
    for (let i = 0; i < chunks; i++) {
      const sent = await api.post(`${chunkUrl}?upload_id=${uploadId}&chunk_index=${i}`, { token, raw: new Uint8Array(bytes.subarray(i * CHUNK, (i + 1) * CHUNK)), headers: { 'content-type': 'application/octet-stream' } });
      assert.equal(sent.status, 200, sent.text);
    }
    const done = await api.post(completeUrl, { token });
    assert.equal(done.status, 201, done.text);
    return done.body.data;
  }

  /** Every file below a node's DATA_DIR but its logs and markers. */
  async function filesOf(dir: string): Promise<string[]> {
    const found: string[] = [];
    for (const name of (await fs.readdir(dir, { recursive: true })) as string[]) {
      if ((await fs.stat(path.join(dir, name))).isFile() && !/^(logs\/|node-id$|server\.running$)/.test(name)) found.push(name);
    }
    return found.sort();
  }

  before(async () => {
    const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-models-'));
    await writeTinyLlamaModel(path.join(scratch, 'chat.gguf'));
    await writeTinyWhisperModel(path.join(scratch, 'whisper.bin'));
    [chat, whisper] = await Promise.all([fs.readFile(path.join(scratch, 'chat.gguf')), fs.readFile(path.join(scratch, 'whisper.bin'))]);
    await fs.rm(scratch, { recursive: true, force: true });
    cluster = await startCluster(2);
    [a, b] = cluster.nodes.map((node) => new ApiClient(node.url)) as [ApiClient, ApiClient];
    token = await a.login('admin', 'admin-pass-123');
  });
  after(async () => {
    await cluster?.close();
  });

  test('a speech model installed on one node is listed by the other, described without fetching it', async () => {
    const installed = await install(a, '/api/audio/models', 'ggml-cluster.bin', whisper);
    assert.deepEqual([installed.name, installed.kind, installed.sha256, installed.size], ['ggml-cluster.bin', 'whisper', digest(whisper), whisper.length]);
    const listed = await b.get('/api/audio/models', { token });
    assert.equal(listed.status, 200, listed.text);
    const there = listed.body.data.find((m: { name: string }) => m.name === 'ggml-cluster.bin');
    assert.deepEqual([there?.kind, there?.sha256, there?.size, there?.location], ['whisper', digest(whisper), whisper.length, 'data']);
    const route = await b.post('/api/ai/routes', { token, body: { kind: 'audio', name: 'Node whisper', provider: 'local-whisper', model: 'ggml-cluster.bin' } });
    assert.equal(route.status, 201, route.text);
    const status = (await b.get('/api/ai/routes/audio', { token })).body.data.find((r: { name: string }) => r.name === 'Node whisper');
    assert.doesNotMatch(status.reason_unavailable ?? '', /not found/, 'the other node counts the stored model as present');
    const duplicate = await b.post('/api/audio/models', { token, body: { filename: 'ggml-cluster.bin', file_size: 10 } });
    assert.deepEqual([duplicate.status, duplicate.body.error], [409, 'audio.model_exists'], 'installed on one node is installed on all');
    for (const dir of cluster.dataDirs) assert.deepEqual(await filesOf(dir), [], `nothing fetched or kept in ${dir} for a listing`);
  });

  test('a chat model installed on one node answers a chat on the other, run from that node’s cache', async () => {
    const installed = await install(a, '/api/ai/models', 'cluster-chat.gguf', chat);
    assert.equal(installed.sha256, digest(chat));
    const listed = (await b.get('/api/ai/models', { token })).body.data.find((m: { name: string }) => m.name === 'cluster-chat.gguf');
    assert.deepEqual([listed?.sha256, listed?.error, typeof listed?.architecture], [digest(chat), null, 'string']);
    const route = await b.post('/api/ai/routes', { token, body: { kind: 'chat', provider: 'local-llama', name: 'Node model', model: 'cluster-chat.gguf', priority: 1 } });
    assert.equal(route.status, 201, route.text);
    const status = (await b.get('/api/ai/routes', { token })).body.data.find((r: { id: number }) => r.id === route.body.data.id).local_model;
    assert.deepEqual([status.present, status.loadable], [true, true]);
    assert.equal((await a.put('/api/system/config', { token, body: { configs: { local_llm_max_tokens: 8 } } })).status, 200);

    const res = await fetch(`${cluster.nodes[1]!.url}/api/ai-chat/message`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'hello' }),
    });
    const text = await res.text();
    assert.equal(res.status, 200, text);
    const events = text.split('\n\n').filter((block) => block.startsWith('data: ')).map((block) => JSON.parse(block.slice(6)) as { type: string; route?: { name: string; local: boolean } });
    assert.ok(events.some((e) => e.type === 'done'), text);
    assert.ok(!events.some((e) => e.type === 'error'), text);
    assert.deepEqual(events.find((e) => e.route)?.route?.name, 'Node model', 'the local model ran on the other node');

    assert.deepEqual(await filesOf(cluster.dataDirs[0]!), [], 'the installing node keeps no model file');
    assert.deepEqual(await filesOf(cluster.dataDirs[1]!), [`cache/models/${digest(chat)}.gguf`], 'the running node keeps only its cache');
  });

  test('a model removed on one node is gone from the other; the cache is only a cache', async () => {
    await fs.rm(path.join(cluster.dataDirs[1]!, 'cache'), { recursive: true });
    const status = async () => (await b.get('/api/ai/routes', { token })).body.data.find((r: { name: string }) => r.name === 'Node model').local_model;
    assert.equal((await status()).present, true, 'without its cache the node still lists the model from the bucket');
    const removed = await a.delete('/api/ai/models/cluster-chat.gguf', { token });
    assert.deepEqual(removed.body.data, { name: 'cluster-chat.gguf', deleted: true });
    assert.equal((await b.get('/api/ai/models', { token })).body.data.some((m: { name: string }) => m.name === 'cluster-chat.gguf'), false);
    assert.equal((await b.delete('/api/ai/models/cluster-chat.gguf', { token })).status, 404);
    assert.equal((await status()).present, false);
  });
});
