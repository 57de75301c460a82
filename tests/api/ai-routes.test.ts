import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';

const SECRET = 'sk-route-secret-9876';

describe('model routes /api/ai/routes', () => {
  let ts: TestServer;
  let employee: { token: string };
  const chatRoute = { name: 'Local chat', kind: 'chat', provider: 'openai-compatible', base_url: 'http://127.0.0.1:11434/v1/', api_key: SECRET, model: 'qwen2.5' };

  before(async () => {
    ts = await startTestServer();
    employee = await ts.user();
  });
  after(() => ts.close());

  const create = (body: Record<string, unknown>) => ts.api.post('/api/ai/routes', { token: ts.adminToken, body });

  test('admin only, except the audio listing', async () => {
    assert.equal((await ts.api.get('/api/ai/routes')).status, 401);
    assert.equal((await ts.api.get('/api/ai/routes/audio')).status, 401);
    for (const [method, path] of [['get', '/api/ai/routes'], ['post', '/api/ai/routes'], ['get', '/api/ai/routes/1'], ['put', '/api/ai/routes/1'], ['delete', '/api/ai/routes/1'], ['get', '/api/ai/calls']] as const) {
      const res = await ts.api[method](path, { token: employee.token, body: method === 'post' || method === 'put' ? chatRoute : undefined });
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.equal(res.body.error, 'forbidden');
    }
    const audio = await ts.api.get('/api/ai/routes/audio', { token: employee.token });
    assert.equal(audio.status, 200);
    assert.deepEqual(audio.body.data, []);
  });

  test('create applies defaults, masks the key and derives is_local from a loopback URL', async () => {
    const res = await create(chatRoute);
    assert.equal(res.status, 201);
    const route = res.body.data;
    assert.ok(Number.isInteger(route.id));
    assert.equal(route.base_url, 'http://127.0.0.1:11434/v1');
    assert.equal(route.api_key, '****9876');
    assert.equal(route.has_api_key, true);
    assert.equal(route.priority, 100);
    assert.equal(route.enabled, true);
    assert.equal(route.is_local, true);
    assert.equal(route.connect_timeout_ms, null);
    assert.ok(!res.text.includes(SECRET));

    const remote = await create({ ...chatRoute, name: 'Cloud', base_url: 'https://api.example.com/v1', api_key: undefined, enabled: false, priority: 5 });
    assert.equal(remote.status, 201);
    assert.equal(remote.body.data.is_local, false);
    assert.equal(remote.body.data.enabled, false);
    assert.equal(remote.body.data.api_key, '');
    assert.equal(remote.body.data.has_api_key, false);

    const explicit = await create({ ...chatRoute, name: 'Tunnel', is_local: false, idle_timeout_ms: 30_000 });
    assert.equal(explicit.body.data.is_local, false);
    assert.equal(explicit.body.data.idle_timeout_ms, 30_000);
  });

  test('create rejects bad input with 400', async () => {
    const bad: [string, Record<string, unknown>][] = [
      ['missing model', { ...chatRoute, model: undefined }],
      ['empty name', { ...chatRoute, name: ' ' }],
      ['unknown kind', { ...chatRoute, kind: 'video' }],
      ['unknown provider', { ...chatRoute, provider: 'carrier-pigeon' }],
      ['chat route on a speech provider', { ...chatRoute, provider: 'local-whisper' }],
      ['not an http URL', { ...chatRoute, base_url: 'ftp://example.com' }],
      ['not a URL', { ...chatRoute, base_url: 'http:// nope' }],
      ['boolean as string', { ...chatRoute, enabled: 'true' }],
      ['boolean as number', { ...chatRoute, is_local: 1 }],
      ['fractional priority', { ...chatRoute, priority: 1.5 }],
      ['negative priority', { ...chatRoute, priority: -1 }],
      ['tiny timeout', { ...chatRoute, connect_timeout_ms: 5 }],
      ['unknown field', { ...chatRoute, colour: 'blue' }],
    ];
    for (const [label, body] of bad) {
      const res = await create(body);
      assert.equal(res.status, 400, label);
      assert.equal(res.body.error, 'validation_failed', label);
      assert.equal(res.body.data, null);
    }
    const notJson = await ts.api.post('/api/ai/routes', { token: ts.adminToken, raw: '{"name":', headers: { 'content-type': 'application/json' } });
    assert.equal(notJson.status, 400);
  });

  test('get, update and delete one route', async () => {
    const { id } = (await create({ ...chatRoute, name: 'Editable' })).body.data;
    assert.equal((await ts.api.get(`/api/ai/routes/${id}`, { token: ts.adminToken })).body.data.name, 'Editable');
    assert.equal((await ts.api.get('/api/ai/routes/999999', { token: ts.adminToken })).status, 404);
    assert.equal((await ts.api.get('/api/ai/routes/abc', { token: ts.adminToken })).status, 400);

    const put = (body: Record<string, unknown>, routeId = id) => ts.api.put(`/api/ai/routes/${routeId}`, { token: ts.adminToken, body });
    const disabled = await put({ enabled: false, priority: 7 });
    assert.equal(disabled.status, 200);
    assert.equal(disabled.body.data.enabled, false);
    assert.equal(disabled.body.data.priority, 7);
    assert.equal(disabled.body.data.name, 'Editable');

    const renamed = await put({ name: 'Renamed', api_key: '****9876' });
    assert.equal(renamed.body.data.enabled, false, 'an omitted boolean keeps its stored value');
    assert.equal(renamed.body.data.api_key, '****9876', 'the masked key sent back keeps the stored key');
    assert.equal(renamed.body.data.has_api_key, true);

    const rekeyed = await put({ api_key: 'sk-another-key-1111' });
    assert.equal(rekeyed.body.data.api_key, '****1111');
    assert.ok(!rekeyed.text.includes('sk-another-key-1111'));
    const cleared = await put({ api_key: '' });
    assert.equal(cleared.body.data.has_api_key, false);

    assert.equal((await put({ provider: 'local-whisper' })).status, 400, 'a chat route cannot take a speech provider');
    const local = await put({ kind: 'audio', provider: 'local-whisper' });
    assert.equal(local.status, 200, 'but it can become an audio route');
    assert.equal(local.body.data.base_url, '', 'a route turned local keeps no URL');
    assert.equal((await put({ base_url: 'http://localhost:9000' })).status, 400, 'and takes none');
    assert.equal((await put({ enabled: 'no' })).status, 400);
    assert.equal((await put({ base_url: 'not a url' })).status, 400);
    assert.equal((await put({ name: 'x' }, 999999)).status, 404);

    const removed = await ts.api.delete(`/api/ai/routes/${id}`, { token: ts.adminToken });
    assert.equal(removed.status, 200);
    assert.deepEqual(removed.body.data, { id, deleted: true });
    assert.equal((await ts.api.get(`/api/ai/routes/${id}`, { token: ts.adminToken })).status, 404);
    assert.equal((await ts.api.delete(`/api/ai/routes/${id}`, { token: ts.adminToken })).status, 404);
  });

  test('the audio listing shows enabled audio routes in the order they are tried (local first, then by priority) to any user, keys masked', async () => {
    const audio = { kind: 'audio', provider: 'local-whisper', model: 'large-v3', api_key: 'whisper-secret-4242' };
    assert.equal((await create({ ...audio, name: 'Whisper with a URL', base_url: 'http://localhost:9000' })).status, 400, 'a local route takes no URL');
    const second = (await create({ ...audio, name: 'Whisper B', priority: 20 })).body.data;
    const first = (await create({ ...audio, name: 'Cloud STT', provider: 'openai-compatible', base_url: 'https://stt.example.com/v1', priority: 10 })).body.data;
    await create({ ...audio, name: 'Disabled STT', priority: 1, enabled: false });

    const res = await ts.api.get('/api/ai/routes/audio', { token: employee.token });
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.data.map((r: { id: number }) => r.id),
      [second.id, first.id],
    );
    assert.deepEqual(
      res.body.data.map((r: { is_local: boolean }) => r.is_local),
      [true, false],
    );
    assert.ok(!res.text.includes('whisper-secret-4242'));
    assert.equal(res.body.data[0].api_key, '****4242');

    const all = await ts.api.get('/api/ai/routes?kind=audio', { token: ts.adminToken });
    assert.deepEqual(
      all.body.data.map((r: { name: string }) => r.name),
      ['Disabled STT', 'Cloud STT', 'Whisper B'],
    );
    assert.ok(all.body.data.every((r: { kind: string }) => r.kind === 'audio'));
    const everything = await ts.api.get('/api/ai/routes', { token: ts.adminToken });
    assert.ok(everything.body.data.some((r: { kind: string }) => r.kind === 'chat'));
    assert.ok(!everything.text.includes(SECRET));
    assert.equal((await ts.api.get('/api/ai/routes?kind=video', { token: ts.adminToken })).status, 400);
  });

  test('the model-call log validates its query', async () => {
    assert.equal((await ts.api.get('/api/ai/calls')).status, 401);
    assert.equal((await ts.api.get('/api/ai/calls?status=bogus', { token: ts.adminToken })).status, 400);
    assert.equal((await ts.api.get('/api/ai/calls?size=0', { token: ts.adminToken })).status, 400);
    const empty = await ts.api.get('/api/ai/calls', { token: ts.adminToken });
    assert.equal(empty.status, 200);
    assert.deepEqual(empty.body.data, { items: [], total: 0, page: 1, size: 20 });
  });
});
