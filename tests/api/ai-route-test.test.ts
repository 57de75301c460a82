// POST /api/ai/routes/{id}/test over real HTTP against a fake OpenAI-compatible server on loopback.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestServer, type TestServer } from '../support/server.js';
import { startFakeModel, type FakeModel } from '../support/fake-model.js';

const SECRET = 'sk-test-connection-4321';

describe('test connection of a model route', () => {
  let ts: TestServer;
  let model: FakeModel;

  before(async () => {
    ts = await startTestServer();
    model = await startFakeModel({ chunks: ['OK'] });
  });
  after(async () => {
    await ts.close();
    await model.close();
  });

  const createRoute = async (body: Record<string, unknown>) => {
    const res = await ts.api.post('/api/ai/routes', { token: ts.adminToken, body: { name: 'Fake', kind: 'chat', provider: 'openai-compatible', model: 'fake-model', ...body } });
    assert.equal(res.status, 201, res.text);
    return res.body.data.id as number;
  };
  const testRoute = (id: number | string, token = ts.adminToken) => ts.api.post(`/api/ai/routes/${id}/test`, { token });

  test('a route that answers is ok, with its latency; the key went upstream and not back', async () => {
    const id = await createRoute({ base_url: model.baseUrl, api_key: SECRET });
    const before = model.requests.length;
    const res = await testRoute(id);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.ok, true);
    assert.equal(res.body.data.error, null);
    assert.ok(Number.isInteger(res.body.data.latency_ms) && res.body.data.latency_ms >= 0);
    assert.ok(!res.text.includes(SECRET));
    const sent = model.requests.at(-1)!;
    assert.equal(model.requests.length, before + 1);
    assert.equal(sent.path, '/v1/chat/completions');
    assert.equal(sent.body.model, 'fake-model');
    assert.equal(sent.headers.authorization, `Bearer ${SECRET}`);
  });

  test('an endpoint that refuses says so: HTTP status and its reason', async () => {
    const id = await createRoute({ base_url: model.baseUrl, api_key: 'wrong' });
    model.behave({ failStatus: 401 });
    try {
      const res = await testRoute(id);
      assert.equal(res.status, 200);
      assert.equal(res.body.data.ok, false);
      assert.match(res.body.data.error, /HTTP 401: fake failure/);
    } finally {
      model.behave({ chunks: ['OK'] });
    }
  });

  test('nothing listening: the refused connection is named', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const id = await createRoute({ base_url: `http://127.0.0.1:${port}/v1` });
    const res = await testRoute(id);
    assert.equal(res.body.data.ok, false);
    assert.match(res.body.data.error, /ECONNREFUSED/);
  });

  test('an endpoint that stalls before its first token fails within the route\'s shorter timeout', async () => {
    const id = await createRoute({ base_url: model.baseUrl, idle_timeout_ms: 200 });
    model.behave({ chunks: ['late'], delayFirstMs: 3_000 });
    try {
      const res = await testRoute(id);
      assert.equal(res.body.data.ok, false);
      assert.match(res.body.data.error, /no data for 200 ms/);
    } finally {
      model.behave({ chunks: ['OK'] });
    }
  });

  test('audio routes, unknown ids, bad ids and employees are refused with 4xx', async () => {
    const audio = await ts.api.post('/api/ai/routes', { token: ts.adminToken, body: { name: 'Speech', kind: 'audio', provider: 'openai-compatible', base_url: model.baseUrl, model: 'whisper-1' } });
    assert.equal(audio.status, 201);
    const unsupported = await testRoute(audio.body.data.id);
    assert.equal(unsupported.status, 400);
    assert.equal(unsupported.body.error, 'ai.route_test_unsupported');
    assert.equal((await testRoute(999_999)).status, 404);
    assert.equal((await testRoute('abc')).body.error, 'validation_failed');
    const employee = await ts.user();
    assert.equal((await testRoute(1, employee.token)).status, 403);
    assert.equal((await ts.api.post('/api/ai/routes/1/test')).status, 401);
  });
});
