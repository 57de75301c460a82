import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';
import { until } from '../support/until.js';
import { startFakeModel, type FakeModel } from '../support/fake-model.js';
import { replaceChunks } from '../../server/knowledge/chunks.js';
import { streamChat } from '../../server/ai/chat-client.js';

type ChatEvent = { type: 'text'; content: string } | { type: 'done'; route?: unknown } | { type: 'error'; message: string };

/** Parses a text/event-stream body that must consist of `data: <json>` events only. */
function parseEvents(body: string): ChatEvent[] {
  assert.ok(body.endsWith('\n\n'), 'every event ends with a blank line');
  return body
    .slice(0, -2)
    .split('\n\n')
    .map((block) => {
      assert.match(block, /^data: [^\n]+$/, 'one data line per event');
      return JSON.parse(block.slice('data: '.length)) as ChatEvent;
    });
}

const replyText = (events: ChatEvent[]) => events.map((e) => (e.type === 'text' ? e.content : '')).join('');

describe('AI coach chat /api/ai-chat', () => {
  let ts: TestServer;
  let modelA: FakeModel;
  let modelB: FakeModel;
  let alice: { id: number; token: string };
  let bob: { id: number; token: string };
  const products: Record<string, { id: number }> = {};

  const admin = () => ts.adminToken;
  const setConfigRoute = (baseUrl: string, model = 'coach-model') =>
    ts.api.put('/api/system/config', { token: admin(), body: { configs: { llm_base_url: baseUrl, llm_model: model, llm_api_key: 'sk-config-key-123456' } } });
  const addRoute = async (body: Record<string, unknown>) => {
    const res = await ts.api.post('/api/ai/routes', { token: admin(), body: { kind: 'chat', provider: 'openai-compatible', model: 'route-model', ...body } });
    assert.equal(res.status, 201, res.text);
    return res.body.data as { id: number };
  };
  const clearRoutes = async () => {
    await setConfigRoute('', '');
    const list = await ts.api.get('/api/ai/routes', { token: admin() });
    for (const route of list.body.data) await ts.api.delete(`/api/ai/routes/${route.id}`, { token: admin() });
  };
  const send = (token: string, body: unknown) => ts.api.post('/api/ai-chat/message', { token, body });
  const lastCalls = async (n: number) => (await ts.api.get(`/api/ai/calls?size=${n}`, { token: admin() })).body.data.items;
  const systemPrompt = (model: FakeModel) => model.requests.at(-1)!.body.messages![0]!;

  before(async () => {
    ts = await startTestServer();
    [modelA, modelB] = await Promise.all([startFakeModel(), startFakeModel()]);
    alice = await ts.user();
    bob = await ts.user();
    const catalog = [
      { code: 'FUND-A', name: 'Steady Income Fund', category: 'capital_consulting', commission_rate: 2.5, risk_level: 'R2', summary: 'Low-volatility bond fund', attributes: { term: '12 months' } },
      { code: 'FUND-B', name: 'Growth Equity Fund', category: 'capital_consulting', commission_rate: 1.2, risk_level: 'R4', attributes: { lockup: '6 months' } },
      { code: 'OLD-C', name: 'Retired Annuity Plan', category: 'capital_consulting', status: 'inactive', commission_rate: 3 },
      { code: 'NORATE-D', name: 'Advisory Package' },
      { code: 'INS-E', name: 'Family Protection Plan', category: 'insurance', commission_rate: 4, attributes: { Currency: 'CNY' } },
      { code: 'FUND-F', name: 'Balanced Fund', category: 'capital_consulting', commission_rate: 1 },
      { code: 'INS-G', name: 'Old Term Life', category: 'insurance', status: 'inactive', commission_rate: 5 },
      { code: 'FUND-H', name: 'Money Market Fund', category: 'capital_consulting', commission_rate: 0.5 },
      { code: 'PENSION-I', name: 'Pension Plan', category: 'pension', commission_rate: 2 },
      { code: 'FUND-J', name: 'Index Fund', category: 'capital_consulting', commission_rate: 0.8 },
    ];
    for (const product of catalog) {
      const res = await ts.api.post('/api/products', { token: admin(), body: product });
      assert.equal(res.status, 201, res.text);
      products[product.code] = res.body.data;
    }
  });
  after(async () => {
    await ts.close();
    await Promise.all([modelA.close(), modelB.close()]);
  });

  describe('without a model route', () => {
    test('the message answers 500 no_model_route in the envelope, not a stream', async () => {
      const res = await send(alice.token, { message: 'How do I pitch FUND-A?' });
      assert.equal(res.status, 500);
      assert.match(res.headers.get('content-type') ?? '', /application\/json/);
      assert.equal(res.body.error, 'no_model_route');
      assert.equal(res.body.data, null);
    });

    test('the scenario quick action answers 500 no_model_route too', async () => {
      const res = await ts.api.post('/api/ai-chat/quick-action', { token: alice.token, body: { action_id: 'scenario', params: { product_code: 'FUND-A' } } });
      assert.equal(res.status, 500);
      assert.equal(res.body.error, 'no_model_route');
    });
  });

  describe('with the system-config route', () => {
    before(() => setConfigRoute(modelA.baseUrl));

    test('the reply streams as data events ending with done', async () => {
      modelA.behave({ chunks: ['Hello', ' from', ' the fake model.'] });
      const res = await send(alice.token, { message: 'How do I pitch this fund?', context: { product_id: products['FUND-A']!.id, page: 'product-detail' } });
      assert.equal(res.status, 200, res.text);
      assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
      const events = parseEvents(res.text);
      assert.deepEqual(events, [
        { type: 'text', content: 'Hello' },
        { type: 'text', content: ' from' },
        { type: 'text', content: ' the fake model.' },
        { type: 'done', route: { id: null, name: 'system config', model: 'coach-model', local: true } },
      ]);
    });

    test('the request upstream is an OpenAI-compatible stream with the coach instructions and the product', async () => {
      const sent = modelA.requests.at(-1)!;
      assert.equal(sent.path, '/v1/chat/completions');
      assert.equal(sent.headers.authorization, 'Bearer sk-config-key-123456');
      assert.equal(sent.body.stream, true);
      assert.equal(sent.body.model, 'coach-model');
      const system = systemPrompt(modelA);
      assert.equal(system.role, 'system');
      assert.match(system.content, /sales coach/);
      assert.match(system.content, /Steady Income Fund/);
      assert.match(system.content, /Code: FUND-A/);
      assert.match(system.content, /Commission rate \(%\): 2\.5/);
      assert.match(system.content, /term: 12 months/);
      assert.match(system.content, /product-detail/);
      assert.deepEqual(sent.body.messages!.at(-1), { role: 'user', content: 'How do I pitch this fund?' });
    });

    test('an inactive or unknown context product is left out and the chat still answers', async () => {
      const carol = await ts.user();
      for (const product_id of [products['OLD-C']!.id, 999999, 3_000_000_000]) {
        modelA.behave({ chunks: ['Answer without product.'] });
        const before = modelA.requests.length;
        const res = await send(carol.token, { message: `Tell me about ${product_id}`, context: { product_id, page: 'product-detail' } });
        assert.equal(res.status, 200, res.text);
        assert.equal(replyText(parseEvents(res.text)), 'Answer without product.');
        assert.equal(modelA.requests.length, before + 1);
        const system = systemPrompt(modelA).content;
        assert.doesNotMatch(system, /Product in context/);
        assert.doesNotMatch(system, /Retired Annuity Plan/);
        assert.match(system, /product-detail/, 'the rest of the context is kept');
      }
      const history = (await ts.api.get('/api/ai-chat/history', { token: carol.token })).body.data.messages;
      assert.equal(history.length, 6);
      assert.ok(history.every((m: { product_id: unknown }) => m.product_id === null));
    });

    test('a numeric string product id is taken as the number', async () => {
      const dave = await ts.user();
      modelA.behave({ chunks: ['About FUND-A.'] });
      const id = products['FUND-A']!.id;
      const res = await send(dave.token, { message: 'Pitch it', context: { product_id: ` ${id} ` } });
      assert.equal(res.status, 200, res.text);
      assert.match(systemPrompt(modelA).content, /Product in context[^]*Steady Income Fund/);
      const history = (await ts.api.get('/api/ai-chat/history', { token: dave.token })).body.data.messages;
      assert.deepEqual(history.map((m: { product_id: unknown }) => m.product_id), [id, id]);
    });

    test('the top retrieved knowledge chunks go into the instructions', async () => {
      // Chunks exist only for approved origins; replaceChunks is what approving a source or a media file calls.
      await replaceChunks(ts.server.db, { source_type: 'knowledge', source_id: 9001, title: 'Fund handbook' }, [
        'Redemption of the Steady Income Fund settles in T+1 business days.',
        'Dividends are paid quarterly.',
      ]);
      await send(alice.token, { message: 'How long does redemption of the Steady Income Fund take?' });
      const system = systemPrompt(modelA).content;
      assert.match(system, /Knowledge base excerpts/);
      assert.match(system, /\[1\] Fund handbook\nRedemption of the Steady Income Fund settles in T\+1 business days\./);

      await send(alice.token, { message: 'xyzzy' });
      assert.doesNotMatch(systemPrompt(modelA).content, /Knowledge base excerpts/, 'no section when nothing matches');
      await ts.api.delete('/api/ai-chat/history', { token: alice.token });
    });

    test('a failing retrieval degrades to an answer without excerpts', async () => {
      const db = ts.server.db;
      await db.schema.renameTable('knowledge_chunks', 'knowledge_chunks_away');
      try {
        // A question not asked before: an earlier answer to the same search would come from the search cache.
        const res = await send(alice.token, { message: 'How many days does redemption of the Steady Income Fund take?' });
        assert.equal(res.status, 200);
        assert.equal(parseEvents(res.text).at(-1)!.type, 'done');
        assert.doesNotMatch(systemPrompt(modelA).content, /Knowledge base excerpts/);
      } finally {
        await db.schema.renameTable('knowledge_chunks_away', 'knowledge_chunks');
        await ts.api.delete('/api/ai-chat/history', { token: alice.token });
      }
    });

    test('bad requests are rejected before any stream or model call', async () => {
      const before = modelA.requests.length;
      assert.equal((await ts.api.post('/api/ai-chat/message', { body: { message: 'hi' } })).status, 401);
      for (const body of [{}, { message: '' }, { message: '   ' }, { message: 42 }, { message: 'hi', context: { product_id: 'abc' } }, { message: 'hi', context: { product_id: -1 } }, { message: 'hi', context: { product_id: '-1' } }, { message: 'hi', context: { product_id: '0' } }, { message: 'hi', context: { product_id: '1.5' } }, { message: 'hi', context: { product_id: '' } }, { message: 'hi', context: { product_id: 1.5 } }, { message: 'x'.repeat(8001) }]) {
        const res = await send(alice.token, body);
        assert.equal(res.status, 400, JSON.stringify(body).slice(0, 80));
        assert.equal(res.body.error, 'validation_failed');
      }
      assert.equal(modelA.requests.length, before);
    });

    test('the conversation is kept per user and its recent turns go into the prompt', async () => {
      await ts.api.delete('/api/ai-chat/history', { token: alice.token });
      modelA.behave({ chunks: ['First answer.'] });
      assert.equal((await send(alice.token, { message: 'First question', context: null })).status, 200);
      modelA.behave({ chunks: ['Second answer.'] });
      await send(alice.token, { message: 'Second question' });
      const roles = modelA.requests.at(-1)!.body.messages!.map((m) => `${m.role}:${m.content}`);
      assert.deepEqual(roles.slice(1), ['user:First question', 'assistant:First answer.', 'user:Second question']);

      const history = await ts.api.get('/api/ai-chat/history', { token: alice.token });
      assert.equal(history.status, 200);
      assert.deepEqual(
        history.body.data.messages.map((m: { role: string; content: string }) => `${m.role}:${m.content}`),
        ['user:First question', 'assistant:First answer.', 'user:Second question', 'assistant:Second answer.'],
      );
      assert.equal((await ts.api.get('/api/ai-chat/history?limit=2', { token: alice.token })).body.data.messages[0].content, 'Second question');
      assert.equal((await ts.api.get('/api/ai-chat/history?limit=0', { token: alice.token })).status, 400);
      assert.equal((await ts.api.get('/api/ai-chat/history')).status, 401);

      await send(bob.token, { message: 'Bob asks' });
      const bobPrompt = modelA.requests.at(-1)!.body.messages!.map((m) => m.content).join('\n');
      assert.doesNotMatch(bobPrompt, /First question/);

      const cleared = await ts.api.delete('/api/ai-chat/history', { token: alice.token });
      assert.deepEqual(cleared.body.data, { deleted: 4 });
      assert.deepEqual((await ts.api.get('/api/ai-chat/history', { token: alice.token })).body.data.messages, []);
      assert.equal((await ts.api.delete('/api/ai-chat/history')).status, 401);
    });

    test('every call is logged with route, model, user, purpose and sizes', async () => {
      modelA.behave({ chunks: ['Logged', ' reply'], usage: { prompt_tokens: 42, completion_tokens: 2 } });
      await send(alice.token, { message: 'Log me' });
      const [call] = await lastCalls(1);
      assert.equal(call.route_id, null);
      assert.equal(call.route_name, 'system config');
      assert.equal(call.model, 'coach-model');
      assert.equal(call.user_id, alice.id);
      assert.equal(call.purpose, 'coach');
      assert.equal(call.status, 'ok');
      assert.equal(call.attempt, 1);
      assert.equal(call.reply_chars, 'Logged reply'.length);
      assert.ok(call.prompt_chars > 'Log me'.length);
      assert.equal(call.prompt_tokens, 42);
      assert.equal(call.completion_tokens, 2);
      assert.ok(Number.isInteger(call.latency_ms) && Number.isInteger(call.first_token_ms));
      const mine = await ts.api.get(`/api/ai/calls?user_id=${alice.id}&status=ok`, { token: admin() });
      assert.ok(mine.body.data.items.length >= 1);
      assert.ok(mine.body.data.items.every((c: { user_id: number; status: string }) => c.user_id === alice.id && c.status === 'ok'));
    });

    test('streamChat logs the specialist and task its caller names (the workbench contract)', async () => {
      modelA.behave({ chunks: ['Spec', 'ialist'] });
      const pieces: string[] = [];
      const result = await streamChat(ts.server.db, {
        messages: [{ role: 'user', content: 'hello' }],
        onToken: (piece) => pieces.push(piece),
        log: { user_id: bob.id, specialist_key: 'contract_reviewer', task_id: 77, purpose: 'workbench.chat' },
      });
      assert.deepEqual(pieces, ['Spec', 'ialist']);
      assert.equal(result.text, 'Specialist');
      assert.deepEqual(result.route, { id: null, name: 'system config', model: 'coach-model', local: true });
      assert.equal(result.attempts, 1);
      const logged = await ts.api.get('/api/ai/calls?specialist_key=contract_reviewer', { token: admin() });
      assert.equal(logged.body.data.total, 1);
      const [call] = logged.body.data.items;
      assert.deepEqual([call.id, call.task_id, call.user_id, call.purpose], [result.call_id, 77, bob.id, 'workbench.chat']);
    });

    test('a failure after the first piece sends an error event and ends the stream', async () => {
      // The pause lets the first piece reach the client before the connection breaks.
      modelA.behave({ chunks: ['Partial', ' never sent'], dropAfterFirst: true, delayMs: 100 });
      const res = await send(alice.token, { message: 'Break please' });
      assert.equal(res.status, 200);
      const events = parseEvents(res.text);
      assert.deepEqual(events[0], { type: 'text', content: 'Partial' });
      const last = events.at(-1)!;
      assert.equal(last.type, 'error');
      assert.ok(last.type === 'error' && last.message.length > 0);
      assert.ok(!events.some((e) => e.type === 'done'));
      const [call] = await lastCalls(1);
      assert.equal(call.status, 'failed');
      assert.notEqual(call.first_token_ms, null);
      assert.doesNotMatch(JSON.stringify((await ts.api.get('/api/ai-chat/history', { token: alice.token })).body.data), /Break please/, 'a broken exchange is not kept');
    });

    test('a client that disconnects aborts the upstream request', async () => {
      modelA.behave({ chunks: Array.from({ length: 50 }, (_, i) => `piece ${i} `), delayMs: 100 });
      const abortedBefore = modelA.aborted;
      const controller = new AbortController();
      const res = await fetch(`${ts.url}/api/ai-chat/message`, {
        method: 'POST',
        headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'Talk slowly' }),
        signal: controller.signal,
      });
      assert.equal(res.status, 200);
      const reader = res.body!.getReader();
      const first = await reader.read();
      assert.match(new TextDecoder().decode(first.value), /^data: \{"type":"text","content":"piece 0 "\}/);
      controller.abort();
      await until(() => modelA.aborted > abortedBefore, 'the fake model to see its client go away');
      await until(async () => (await lastCalls(1))[0].status === 'aborted', 'the aborted call to be logged');
    });
  });

  describe('route order and fallback', () => {
    before(clearRoutes);

    test('a route failing before its first token is retried once on the next route', async () => {
      await setConfigRoute(modelA.baseUrl);
      modelA.behave({ failStatus: 500 });
      modelB.behave({ chunks: ['Fallback', ' reply'] });
      const route = await addRoute({ name: 'Backup', base_url: modelB.baseUrl, api_key: 'sk-backup-key-7777', priority: 10 });
      const res = await send(alice.token, { message: 'Anyone there?' });
      assert.equal(res.status, 200, res.text);
      assert.equal(replyText(parseEvents(res.text)), 'Fallback reply');
      assert.equal(modelB.requests.at(-1)!.headers.authorization, 'Bearer sk-backup-key-7777');
      assert.equal(modelB.requests.at(-1)!.body.model, 'route-model');
      const [second, first] = await lastCalls(2);
      assert.deepEqual([first.route_name, first.status, first.attempt], ['system config', 'failed', 1]);
      assert.match(first.error, /HTTP 500/);
      assert.deepEqual([second.route_id, second.status, second.attempt], [route.id, 'ok', 2]);
    });

    test('a reply with no text is a failed route too: the next route answers, nothing empty is kept', async () => {
      await clearRoutes();
      await setConfigRoute(modelA.baseUrl);
      modelB.behave({ chunks: ['Second', ' route'] });
      await addRoute({ name: 'Backup', base_url: modelB.baseUrl, api_key: 'sk-backup-key-7777', priority: 10 });
      for (const stream of [true, false]) {
        modelA.behave({ chunks: [], ...(stream ? {} : { ignoreStream: true }) });
        const res = await send(alice.token, { message: `Say something (${stream ? 'stream' : 'json'})` });
        assert.equal(res.status, 200, res.text);
        assert.equal(replyText(parseEvents(res.text)), 'Second route');
        const [second, first] = await lastCalls(2);
        assert.deepEqual([first.status, second.status, second.attempt], ['failed', 'ok', 2]);
        assert.match(first.error, /answered nothing/);
      }
      modelB.behave({ chunks: [] });
      const none = await send(alice.token, { message: 'Nobody answers' });
      assert.deepEqual([none.status, none.body.error], [500, 'model_route_failed']);
      const history = (await ts.api.get('/api/ai-chat/history', { token: alice.token })).body.data.messages as { role: string; content: string }[];
      assert.ok(history.every((m) => m.content !== ''), 'no empty message is kept');
    });

    test('routes are tried by ascending priority, disabled ones skipped, at most two attempts', async () => {
      await clearRoutes();
      modelA.behave({ failStatus: 503 });
      modelB.behave({ failStatus: 502 });
      await addRoute({ name: 'Disabled first', base_url: modelA.baseUrl, priority: 0, enabled: false });
      await addRoute({ name: 'Third', base_url: modelB.baseUrl, priority: 30 });
      await addRoute({ name: 'Second', base_url: modelB.baseUrl, priority: 20 });
      await addRoute({ name: 'First', base_url: modelA.baseUrl, priority: 10 });
      const [a, b] = [modelA.requests.length, modelB.requests.length];
      const res = await send(alice.token, { message: 'Is anyone up?' });
      assert.equal(res.status, 500);
      assert.equal(res.body.error, 'model_route_failed');
      assert.match(res.body.message, /"First".*HTTP 503.*"Second".*HTTP 502/);
      assert.equal(modelA.requests.length - a, 1, 'only the enabled route of model A was tried');
      assert.equal(modelB.requests.length - b, 1, 'no third attempt');
      const calls = await lastCalls(2);
      assert.deepEqual(calls.map((c: { route_name: string }) => c.route_name), ['Second', 'First']);
    });

    test('a route that refuses the connection falls back to the next one', async () => {
      await clearRoutes();
      modelB.behave({ chunks: ['Still here'] });
      await addRoute({ name: 'Nobody home', base_url: 'http://127.0.0.1:9/v1', priority: 1 });
      await addRoute({ name: 'Answering', base_url: modelB.baseUrl, priority: 2 });
      const res = await send(alice.token, { message: 'Hello?' });
      assert.equal(replyText(parseEvents(res.text)), 'Still here');
      const [, refused] = await lastCalls(2);
      assert.deepEqual([refused.route_name, refused.status, refused.first_token_ms], ['Nobody home', 'failed', null]);
    });

    test('a route that stalls before its first token times out and the next one answers', async () => {
      await clearRoutes();
      modelA.behave({ chunks: ['too late'], delayFirstMs: 5000 });
      modelB.behave({ chunks: ['On time'] });
      await addRoute({ name: 'Stalling', base_url: modelA.baseUrl, priority: 1, idle_timeout_ms: 300 });
      await addRoute({ name: 'Prompt', base_url: modelB.baseUrl, priority: 2 });
      const res = await send(alice.token, { message: 'Quick answer please' });
      assert.equal(replyText(parseEvents(res.text)), 'On time');
      const [, stalled] = await lastCalls(2);
      assert.equal(stalled.route_name, 'Stalling');
      assert.match(stalled.error, /no data for 300 ms/);
    });
  });

  describe('quick actions', () => {
    const run = (action_id: unknown, params?: unknown, token = alice.token) => ts.api.post('/api/ai-chat/quick-action', { token, body: { action_id, params } });

    test('the list names scenario, commission and compare', async () => {
      assert.equal((await ts.api.get('/api/ai-chat/quick-actions')).status, 401);
      const res = await ts.api.get('/api/ai-chat/quick-actions', { token: bob.token });
      assert.equal(res.status, 200);
      assert.deepEqual(
        res.body.data.actions.map((a: { id: string }) => a.id),
        ['scenario', 'commission', 'compare'],
      );
      assert.ok(res.body.data.actions.every((a: { label: unknown }) => typeof a.label === 'string' && a.label.length > 0));
    });

    test('commission is computed from the product rate without a model call', async () => {
      const calls = [modelA.requests.length, modelB.requests.length];
      const res = await run('commission', { product_code: 'FUND-A', amount: 10000 });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.data, {
        action_id: 'commission',
        product: { id: products['FUND-A']!.id, code: 'FUND-A', name: 'Steady Income Fund' },
        amount: 10000,
        amount_given: true,
        currency: null,
        commission_rate: 2.5,
        commission: 250,
        formula: '10000 × 2.5% = 250',
        answer: 'Steady Income Fund (FUND-A) pays a 2.5% commission: 10,000 × 2.5% = 250.',
      });
      const byId = await run('commission', { product_id: products['FUND-B']!.id, amount: 1234.56 });
      assert.equal(byId.body.data.commission, 14.81);
      assert.equal(byId.body.data.answer, 'Growth Equity Fund (FUND-B) pays a 1.2% commission: 1,234.56 × 1.2% = 14.81.');
      const withCurrency = await run('commission', { product_code: 'INS-E', amount: 2500.5 });
      assert.equal(withCurrency.status, 200, withCurrency.text);
      assert.equal(withCurrency.body.data.currency, 'CNY');
      assert.equal(withCurrency.body.data.commission, 100.02);
      assert.equal(withCurrency.body.data.answer, 'Family Protection Plan (INS-E) pays a 4% commission: 2,500.5 CNY × 4% = 100.02 CNY.');
      assert.deepEqual([modelA.requests.length, modelB.requests.length], calls);
    });

    test('commission without an amount answers with the rate and a worked example for 10,000', async () => {
      for (const params of [{ product_code: 'FUND-A' }, { product_code: 'FUND-A', amount: null }]) {
        const res = await run('commission', params);
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(res.body.data, {
          action_id: 'commission',
          product: { id: products['FUND-A']!.id, code: 'FUND-A', name: 'Steady Income Fund' },
          amount: 10000,
          amount_given: false,
          currency: null,
          commission_rate: 2.5,
          commission: 250,
          formula: '10000 × 2.5% = 250',
          answer: 'Steady Income Fund (FUND-A) pays a 2.5% commission. No amount was given, so this is an example for a reference amount of 10,000: 10,000 × 2.5% = 250.',
        });
      }
      const inCurrency = await run('commission', { product_id: products['INS-E']!.id });
      assert.equal(inCurrency.status, 200, inCurrency.text);
      assert.deepEqual([inCurrency.body.data.amount, inCurrency.body.data.amount_given, inCurrency.body.data.currency, inCurrency.body.data.commission], [10000, false, 'CNY', 400]);
      assert.match(inCurrency.body.data.answer, /reference amount of 10,000 CNY: 10,000 CNY × 4% = 400 CNY\.$/);
      assert.equal((await run('commission', { product_code: 'NOPE' })).status, 404);
      assert.equal((await run('commission', { product_code: 'OLD-C' })).status, 404);
      const noRate = await run('commission', { product_code: 'NORATE-D' });
      assert.equal(noRate.status, 400);
      assert.equal(noRate.body.error, 'commission_rate_missing');
      assert.match(noRate.body.message, /"NORATE-D" has no commission rate/);
    });

    test('commission rejects bad params, unknown or inactive products and products without a rate', async () => {
      for (const params of [undefined, {}, { product_code: 'FUND-A', amount: 0 }, { product_code: 'FUND-A', amount: -5 }, { product_code: 'FUND-A', amount: '100' }, { amount: 100 }, { product_code: 'FUND-A', product_id: 1, amount: 100 }, { product_code: 7 }]) {
        const res = await run('commission', params);
        assert.equal(res.status, 400, JSON.stringify(params));
        assert.equal(res.body.error, 'validation_failed');
      }
      assert.equal((await run('commission', { product_code: 'NOPE', amount: 100 })).status, 404);
      assert.equal((await run('commission', { product_code: 'OLD-C', amount: 100 })).status, 404);
      assert.equal((await run('commission', { product_id: 999999, amount: 100 })).status, 404);
      assert.equal((await run('commission', { product_id: 3_000_000_000, amount: 100 })).status, 404);
      const noRate = await run('commission', { product_code: 'NORATE-D', amount: 100 });
      assert.equal(noRate.status, 400);
      assert.equal(noRate.body.error, 'commission_rate_missing');
    });

    test('compare returns a side-by-side table of the products by code', async () => {
      const res = await run('compare', { product_codes: ['FUND-B', 'FUND-A'] });
      assert.equal(res.status, 200, res.text);
      const { products: listed, rows } = res.body.data;
      assert.deepEqual(
        listed.map((p: { code: string }) => p.code),
        ['FUND-B', 'FUND-A'],
      );
      const row = (field: string) => rows.find((r: { field: string }) => r.field === field)?.values;
      assert.deepEqual(row('name'), ['Growth Equity Fund', 'Steady Income Fund']);
      assert.deepEqual(row('commission_rate'), [1.2, 2.5]);
      assert.deepEqual(row('risk_level'), ['R4', 'R2']);
      assert.deepEqual(row('summary'), [null, 'Low-volatility bond fund']);
      assert.deepEqual(row('attributes.lockup'), ['6 months', null]);
      assert.deepEqual(row('attributes.term'), [null, '12 months']);
      assert.equal(res.body.data.note, null);
    });

    test('compare with one product picks up to two active products of its category, nearest id first', async () => {
      const codes = async (params: unknown) => {
        const res = await run('compare', params);
        assert.equal(res.status, 200, res.text);
        return res.body.data.products.map((p: { code: string }) => p.code);
      };
      const note = 'Compared with the 2 nearest active products in category "capital_consulting".';
      // FUND-A's nearest neighbour OLD-C is inactive; FUND-F's and FUND-H's other neighbours are of other categories.
      assert.deepEqual(await codes({ product_code: 'FUND-A' }), ['FUND-A', 'FUND-B', 'FUND-F']);
      assert.deepEqual(await codes({ product_id: products['FUND-A']!.id }), ['FUND-A', 'FUND-B', 'FUND-F']);
      // Equal distances: the lower id first (FUND-B before FUND-J, FUND-F before FUND-J).
      assert.deepEqual(await codes({ product_code: 'FUND-F' }), ['FUND-F', 'FUND-H', 'FUND-B']);
      assert.deepEqual(await codes({ product_code: 'FUND-H' }), ['FUND-H', 'FUND-F', 'FUND-J']);

      const res = await run('compare', { product_code: 'FUND-H' });
      assert.equal(res.body.data.note, note);
      const rows = res.body.data.rows;
      assert.deepEqual(rows.find((r: { field: string }) => r.field === 'commission_rate').values, [0.5, 1, 0.8]);
      assert.deepEqual(rows.find((r: { field: string }) => r.field === 'category').values, ['capital_consulting', 'capital_consulting', 'capital_consulting']);
    });

    test('compare with one product that has no active peer returns its table alone with a note', async () => {
      const alone = await run('compare', { product_code: 'INS-E' });
      assert.equal(alone.status, 200, alone.text);
      const { products: listed, rows, note } = alone.body.data;
      assert.deepEqual(listed, [{ id: products['INS-E']!.id, code: 'INS-E', name: 'Family Protection Plan' }]);
      assert.ok(rows.every((r: { values: unknown[] }) => r.values.length === 1));
      assert.deepEqual(rows.find((r: { field: string }) => r.field === 'attributes.Currency').values, ['CNY']);
      assert.equal(note, 'No comparable product exists: no other active product in category "insurance".');

      const noCategory = await run('compare', { product_code: 'NORATE-D' });
      assert.equal(noCategory.status, 200, noCategory.text);
      assert.deepEqual(noCategory.body.data.products.map((p: { code: string }) => p.code), ['NORATE-D']);
      assert.equal(noCategory.body.data.note, 'No comparable product exists: this product has no category.');
    });

    test('compare with one product: unknown or inactive is a 404, ambiguous params a 400', async () => {
      for (const params of [{ product_code: 'NOPE' }, { product_code: 'OLD-C' }, { product_id: 999999 }, { product_id: 3_000_000_000 }]) {
        const res = await run('compare', params);
        assert.equal(res.status, 404, JSON.stringify(params));
        assert.equal(res.body.error, 'not_found');
      }
      for (const params of [{ product_code: 'FUND-A', product_codes: ['FUND-A', 'FUND-B'] }, { product_code: 'FUND-A', product_id: products['FUND-B']!.id }, { product_code: '' }, { product_code: 7 }]) {
        const res = await run('compare', params);
        assert.equal(res.status, 400, JSON.stringify(params));
        assert.equal(res.body.error, 'validation_failed');
      }
    });

    test('compare needs two or more distinct, known, active codes', async () => {
      for (const params of [{}, { product_codes: ['FUND-A'] }, { product_codes: 'FUND-A,FUND-B' }, { product_codes: ['FUND-A', 'FUND-A'] }, { product_codes: ['FUND-A', 7] }]) {
        assert.equal((await run('compare', params)).status, 400, JSON.stringify(params));
      }
      const missing = await run('compare', { product_codes: ['FUND-A', 'NOPE', 'OLD-C'] });
      assert.equal(missing.status, 404);
      assert.match(missing.body.message, /"NOPE", "OLD-C"/);
    });

    test('scenario asks the model for a role-play for the product', async () => {
      await clearRoutes();
      await setConfigRoute(modelA.baseUrl);
      modelA.behave({ chunks: ['Customer: ', 'I am worried about risk.'] });
      const res = await run('scenario', { product_code: 'FUND-A', difficulty: 'hard' });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.data.action_id, 'scenario');
      assert.equal(res.body.data.scenario, 'Customer: I am worried about risk.');
      assert.deepEqual(res.body.data.product, { id: products['FUND-A']!.id, code: 'FUND-A', name: 'Steady Income Fund' });
      assert.equal(res.body.data.route.name, 'system config');
      const sent = modelA.requests.at(-1)!.body.messages!;
      assert.match(sent[0]!.content, /Steady Income Fund/);
      assert.match(sent[1]!.content, /role-play/);
      assert.match(sent[1]!.content, /Difficulty: hard/);
      const [call] = await lastCalls(1);
      assert.equal(call.purpose, 'quick_action.scenario');
      assert.equal((await run('scenario', { product_code: 'OLD-C' })).status, 404);
      assert.equal((await run('scenario', { product_code: 'FUND-A', difficulty: 'extreme' })).status, 400);
    });

    test('an unknown or missing action id is a 400', async () => {
      const unknown = await run('horoscope', {});
      assert.equal(unknown.status, 400);
      assert.equal(unknown.body.error, 'unknown_quick_action');
      assert.equal((await run(undefined, {})).status, 400);
      assert.equal((await run('commission', 'not an object')).status, 400);
      assert.equal((await ts.api.post('/api/ai-chat/quick-action', { body: { action_id: 'commission' } })).status, 401);
    });
  });
});
