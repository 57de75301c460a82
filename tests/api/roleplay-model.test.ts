// The model customer of a role-play over real HTTP, against the fake OpenAI-compatible server: what its prompt
// carries, the reply as JSON and streamed, the scripted line when the model fails before a word, and criteria the
// model judges (a quote that is not verbatim from the rep is discarded).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';
import { startFakeModel, type FakeModel } from '../support/fake-model.js';
import { replaceChunks } from '../../server/knowledge/chunks.js';
import { createProduct } from './compliance-fixtures.js';
import { REP_LINES, SCENARIO, createScenario } from './roleplay-fixtures.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

function parseEvents(body: string): Json[] {
  assert.ok(body.endsWith('\n\n'), 'every event ends with a blank line');
  return body
    .slice(0, -2)
    .split('\n\n')
    .map((block) => {
      assert.match(block, /^data: [^\n]+$/, 'one data line per event');
      return JSON.parse(block.slice('data: '.length));
    });
}

describe('role-play with a model customer', () => {
  let ts: TestServer;
  let fake: FakeModel;
  let rep: { id: number; token: string };
  let scenarioId: number;
  let sessionId: number;

  const turn = (id: number, text: string, headers?: Record<string, string>) => ts.api.post(`/api/roleplay/sessions/${id}/turns`, { token: rep.token, body: { text }, headers });
  const chatRequests = () => fake.requests.filter((r) => r.path.endsWith('/chat/completions'));

  before(async () => {
    ts = await startTestServer();
    fake = await startFakeModel();
    rep = await ts.user('employee');
    const productId = await createProduct(ts, { code: 'WY-1', name: '稳盈理财', category: 'wealth', risk_level: 'R2', cooling_off_days: 15 });
    await replaceChunks(ts.server.db, { source_type: 'knowledge', source_id: 9101, title: '稳盈理财产品说明书' }, ['稳盈理财的业绩比较基准为年化3.5%，不保本，赎回T+1到账。']);
    scenarioId = await createScenario(ts, {
      product_id: productId,
      criteria: [...SCENARIO.criteria, { key: 'next_step', label: '约定下一步', weight: 1, description: '理财经理和客户约定下一次联系的时间' }],
    });
    const route = await ts.api.post('/api/ai/routes', { token: ts.adminToken, body: { kind: 'chat', name: 'Fake chat', provider: 'openai-compatible', base_url: fake.baseUrl, model: 'customer-model' } });
    assert.equal(route.status, 201, route.text);
    const res = await ts.api.post('/api/roleplay/sessions', { token: rep.token, body: { scenario_id: scenarioId } });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.data.mode, 'model', 'an enabled chat route can run');
    sessionId = res.body.data.id;
  });
  after(async () => {
    await fake?.close();
    await ts?.close();
  });

  test('the model plays the customer: persona, product, facts and objections in its prompt; the rep’s words as the user’s', async () => {
    fake.behave({ chunks: ['哎，', '那会不会亏本啊？'] });
    const res = await turn(sessionId, REP_LINES[0]!);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.data.customer_turn, { index: 2, speaker: 'customer', text: '哎，那会不会亏本啊？' });
    const sent = chatRequests().at(-1)!;
    assert.equal(sent.body.model, 'customer-model');
    const [system, ...rest] = sent.body.messages!;
    assert.equal(system!.role, 'system');
    for (const part of [SCENARIO.persona.name, SCENARIO.persona.profile, 'C2', '稳盈理财', 'R2', '业绩比较基准为年化3.5%', ...SCENARIO.objections, SCENARIO.closing]) {
      assert.ok(system!.content.includes(part), `the prompt carries ${part}`);
    }
    assert.deepEqual(rest, [
      { role: 'assistant', content: SCENARIO.opening },
      { role: 'user', content: REP_LINES[0] },
    ]);
  });

  test('with Accept: text/event-stream the rep turn (with its flags) comes first, then the reply as it is generated', async () => {
    fake.behave({ chunks: ['真的', '保本吗？', '手续费高不高？'] });
    const res = await turn(sessionId, REP_LINES[1]!, { accept: 'text/event-stream' });
    assert.equal(res.status, 200, res.text);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    const events = parseEvents(res.text);
    assert.deepEqual(events, [
      { type: 'rep_turn', turn: { index: 3, speaker: 'rep', text: REP_LINES[1], flags: [{ rule_key: 'no_guarantee', quote: REP_LINES[1] }] } },
      { type: 'text', content: '真的' },
      { type: 'text', content: '保本吗？' },
      { type: 'text', content: '手续费高不高？' },
      { type: 'done', customer_turn: { index: 4, speaker: 'customer', text: '真的保本吗？手续费高不高？' } },
    ]);
    const stored = (await ts.api.get(`/api/roleplay/sessions/${sessionId}`, { token: rep.token })).body.data;
    assert.equal(stored.turns.length, 5);
    assert.equal(stored.turns[4].text, '真的保本吗？手续费高不高？');
  });

  test('a model that fails before its first word leaves the practice going with the scripted line', async () => {
    fake.behave({ failStatus: 503 });
    const res = await turn(sessionId, REP_LINES[2]!);
    assert.equal(res.status, 200, res.text);
    // The rep's third turn: the scripted customer would close here.
    assert.equal(res.body.data.customer_turn.text, SCENARIO.closing);
  });

  test('the model judges described criteria; a quote that is not verbatim from a rep turn is discarded', async () => {
    fake.behave({
      chunks: [
        JSON.stringify({
          criteria: [
            { key: 'empathy', met: true, quotes: [{ turn_index: 5, quote: '您是担心亏本对吗？' }, { turn_index: 5, quote: '我完全理解您的担心' }] },
            { key: 'next_step', met: true, quotes: [{ turn_index: 5, quote: '我们下周二再联系' }] },
          ],
        }),
      ],
    });
    const res = await ts.api.post(`/api/roleplay/sessions/${sessionId}/finish`, { token: rep.token });
    assert.equal(res.status, 200, res.text);
    const byKey = Object.fromEntries(res.body.data.criteria.map((c: Json) => [c.key, c]));
    assert.equal(byKey.empathy.met, true);
    assert.deepEqual(byKey.empathy.evidence, [{ turn_index: 5, quote: '您是担心亏本对吗？' }]);
    assert.equal(byKey.next_step.met, false, 'its only quote was never said');
    assert.deepEqual(byKey.next_step.evidence, []);
    const judgePrompt = chatRequests().at(-1)!.body.messages!.at(-1)!.content;
    assert.ok(judgePrompt.includes('理财经理先复述客户的担心'), 'the description goes to the model');
    assert.ok(judgePrompt.includes(`[5] rep: ${REP_LINES[2]}`));
    // disclose_risk 2 + ask_risk 1 + empathy 1 of 6.
    assert.equal(res.body.data.score, 67);
  });

  test('a remote route gets the text as it is (masking is another issue’s)', () => {
    const customerCall = chatRequests().find((r) => r.body.messages?.some((m) => m.content === REP_LINES[1]));
    assert.ok(customerCall);
  });
});
