// AI role-play over real HTTP (docs/api/roleplay.md): scenarios written by admins, sessions played against the
// scripted customer (no model at all), their flags, the report, practice cards, who may see what, and the 409 after
// finishing. The model customer has its own file (roleplay-model.test.ts).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';
import { createProduct } from './compliance-fixtures.js';
import { REP_LINES, SCENARIO, createScenario } from './roleplay-fixtures.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

describe('role-play /api/roleplay (scripted customer)', () => {
  let ts: TestServer;
  let rep: { id: number; token: string };
  let other: { id: number; token: string };
  let productId: number;
  let scenarioId: number;

  const admin = () => ts.adminToken;
  const turn = (token: string, id: number, text: string) => ts.api.post(`/api/roleplay/sessions/${id}/turns`, { token, body: { text } });

  before(async () => {
    ts = await startTestServer();
    rep = await ts.user('employee');
    other = await ts.user('employee');
    productId = await createProduct(ts, { code: 'WY-1', name: '稳盈理财', category: 'wealth', risk_level: 'R2', cooling_off_days: 15 });
    scenarioId = await createScenario(ts, { product_id: productId });
  });
  after(async () => {
    await ts?.close();
  });

  describe('scenarios', () => {
    test('an admin creates one and reads it back as written', async () => {
      const res = await ts.api.get(`/api/roleplay/scenarios/${scenarioId}`, { token: admin() });
      assert.equal(res.status, 200, res.text);
      const s = res.body.data;
      assert.equal(s.title, SCENARIO.title);
      assert.equal(s.product_id, productId);
      assert.deepEqual(s.persona, SCENARIO.persona);
      assert.deepEqual(s.objections, SCENARIO.objections);
      assert.deepEqual(s.criteria, SCENARIO.criteria);
      assert.equal(s.pass_score, 60);
      assert.equal(s.max_turns, 6);
      assert.equal(s.status, 'active');
    });

    test('employees get 403 on writes, 401 without a token', async () => {
      assert.equal((await ts.api.post('/api/roleplay/scenarios', { token: rep.token, body: SCENARIO })).status, 403);
      assert.equal((await ts.api.put(`/api/roleplay/scenarios/${scenarioId}`, { token: rep.token, body: { title: 'x' } })).status, 403);
      assert.equal((await ts.api.delete(`/api/roleplay/scenarios/${scenarioId}`, { token: rep.token })).status, 403);
      assert.equal((await ts.api.get('/api/roleplay/scenarios')).status, 401);
    });

    test('bad input is a 400 in the envelope: unknown risk type, no criteria, a broken phrase, an unknown product', async () => {
      const bad = async (fields: Record<string, unknown>, error = 'validation_failed') => {
        const res = await ts.api.post('/api/roleplay/scenarios', { token: admin(), body: { ...SCENARIO, ...fields } });
        assert.equal(res.status, 400, res.text);
        assert.equal(res.body.error, error);
        assert.equal(res.body.data, null);
      };
      await bad({ persona: { ...SCENARIO.persona, risk_tolerance: 'C6' } });
      await bad({ criteria: [] });
      await bad({ criteria: [{ key: 'x', label: 'x', weight: 1 }] });
      await bad({ pass_score: 101 });
      await bad({ criteria: [{ key: 'x', label: 'x', weight: 1, phrases: ['(保本'] }] }, 'roleplay.invalid_phrase');
      await bad({ product_id: 999_999 });
      assert.equal((await ts.api.put('/api/roleplay/scenarios/999999', { token: admin(), body: { title: 'x' } })).status, 404);
    });

    test('employees list the active ones; delete disables, and a disabled scenario is 404 to them and cannot be played', async () => {
      const doomed = await createScenario(ts, { title: '将被停用的场景' });
      const listed = async (token: string) => ((await ts.api.get('/api/roleplay/scenarios', { token })).body.data as Json[]).map((s) => s.id);
      assert.ok((await listed(rep.token)).includes(doomed));
      const deleted = await ts.api.delete(`/api/roleplay/scenarios/${doomed}`, { token: admin() });
      assert.equal(deleted.status, 200, deleted.text);
      assert.equal(deleted.body.data.status, 'inactive');
      assert.ok(!(await listed(rep.token)).includes(doomed));
      assert.ok((await listed(admin())).includes(doomed), 'admins still see it');
      assert.equal((await ts.api.get(`/api/roleplay/scenarios/${doomed}`, { token: rep.token })).status, 404);
      const start = await ts.api.post('/api/roleplay/sessions', { token: rep.token, body: { scenario_id: doomed } });
      assert.equal(start.status, 409);
      assert.equal(start.body.error, 'roleplay.scenario_inactive');
    });

    test('an edit changes only what it names', async () => {
      const id = await createScenario(ts);
      const res = await ts.api.put(`/api/roleplay/scenarios/${id}`, { token: admin(), body: { objections: ['太贵了'], pass_score: 80 } });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.data.objections, ['太贵了']);
      assert.equal(res.body.data.pass_score, 80);
      assert.equal(res.body.data.closing, SCENARIO.closing);
    });
  });

  describe('a scripted session', () => {
    let session: Json;
    let replies: Json[] = [];

    before(async () => {
      const res = await ts.api.post('/api/roleplay/sessions', { token: rep.token, body: { scenario_id: scenarioId } });
      assert.equal(res.status, 201, res.text);
      session = res.body.data;
      replies = [];
      for (const line of REP_LINES) {
        const r = await turn(rep.token, session.id, line);
        assert.equal(r.status, 200, r.text);
        replies.push(r.body.data);
      }
    });

    test('starts active in scripted mode (no model configured), the customer opening', () => {
      assert.equal(session.status, 'active');
      assert.equal(session.mode, 'scripted');
      assert.equal(session.scenario_id, scenarioId);
      assert.deepEqual(session.turns, [{ index: 0, speaker: 'customer', text: SCENARIO.opening }]);
    });

    test('the scripted customer answers each turn with the next objection, then the closing', () => {
      assert.deepEqual(
        replies.map((r) => r.customer_turn),
        [
          { index: 2, speaker: 'customer', text: SCENARIO.objections[0] },
          { index: 4, speaker: 'customer', text: SCENARIO.objections[1] },
          { index: 6, speaker: 'customer', text: SCENARIO.closing },
        ],
      );
      assert.deepEqual(replies[0].rep_turn, { index: 1, speaker: 'rep', text: REP_LINES[0], flags: [] });
    });

    test('a promise of 保本保收益 is flagged on the turn that made it, at once', () => {
      assert.deepEqual(replies[1].rep_turn.flags, [{ rule_key: 'no_guarantee', quote: REP_LINES[1] }]);
      assert.deepEqual(replies[2].rep_turn.flags, [], '不保本 is the opposite of the promise');
    });

    test('the session reads back with every turn, to its owner and to admins; anyone else gets 404', async () => {
      const own = await ts.api.get(`/api/roleplay/sessions/${session.id}`, { token: rep.token });
      assert.equal(own.status, 200);
      assert.equal(own.body.data.turns.length, 7);
      assert.deepEqual(own.body.data.turns[3].flags, [{ rule_key: 'no_guarantee', quote: REP_LINES[1] }]);
      assert.equal((await ts.api.get(`/api/roleplay/sessions/${session.id}`, { token: admin() })).status, 200);
      const stranger = await ts.api.get(`/api/roleplay/sessions/${session.id}`, { token: other.token });
      assert.equal(stranger.status, 404);
      assert.equal(stranger.body.error, 'not_found');
      assert.equal((await turn(other.token, session.id, '你好')).status, 404);
      assert.equal((await ts.api.post(`/api/roleplay/sessions/${session.id}/finish`, { token: other.token })).status, 404);
      assert.equal((await turn(rep.token, session.id, '')).status, 400);
    });

    test('finishing scores the criteria with evidence quoting only the rep, verbatim, plus the compliance results', async () => {
      const res = await ts.api.post(`/api/roleplay/sessions/${session.id}/finish`, { token: rep.token });
      assert.equal(res.status, 200, res.text);
      const report = res.body.data;
      assert.equal(report.status, 'finished');
      const byKey = Object.fromEntries(report.criteria.map((c: Json) => [c.key, c]));
      assert.equal(byKey.disclose_risk.met, true);
      assert.deepEqual(byKey.disclose_risk.evidence, [{ turn_index: 5, quote: REP_LINES[2] }]);
      assert.equal(byKey.ask_risk.met, true);
      assert.deepEqual(byKey.ask_risk.evidence, [{ turn_index: 1, quote: REP_LINES[0] }]);
      assert.equal(byKey.cooling_off.met, false);
      assert.deepEqual(byKey.cooling_off.evidence, []);
      assert.equal(byKey.empathy.met, false, 'no model to judge a described criterion');
      const repTexts = new Set(REP_LINES);
      for (const c of report.criteria) for (const e of c.evidence) assert.ok(repTexts.has(e.quote) || REP_LINES.some((l) => l.includes(e.quote)));
      // (2 + 1) of 5 weight met.
      assert.equal(report.score, 60);
      assert.equal(report.passed, true);
      const noGuarantee = report.compliance.results.find((r: Json) => r.rule_key === 'no_guarantee');
      assert.equal(noGuarantee.outcome, 'fail');
      assert.equal(noGuarantee.evidence[0].quote, REP_LINES[1]);
      assert.equal(noGuarantee.evidence[0].segment_index, 3);
      assert.equal(report.compliance.results.find((r: Json) => r.rule_key === 'identity').outcome, 'pass');
      assert.equal(report.practice_item_ids.length, 2, 'cooling_off and empathy were missed');
    });

    test('after finishing, a turn or a second finish is 409 roleplay.session_finished', async () => {
      const late = await turn(rep.token, session.id, '还有一件事');
      assert.equal(late.status, 409);
      assert.equal(late.body.error, 'roleplay.session_finished');
      const again = await ts.api.post(`/api/roleplay/sessions/${session.id}/finish`, { token: rep.token });
      assert.equal(again.status, 409);
      assert.equal(again.body.error, 'roleplay.session_finished');
    });

    test('missed criteria became practice items and spaced-review cards', async () => {
      const items = (await ts.api.get('/api/coaching/review-items', { token: rep.token })).body.data.items as Json[];
      const labels = items.filter((i) => i.finding_id.startsWith('roleplay.')).map((i) => i.label).sort();
      assert.deepEqual(labels, [`${SCENARIO.title}：告知冷静期`, `${SCENARIO.title}：回应客户顾虑`].sort());
      const cards = await ts.api.get('/api/review/queue', { token: rep.token });
      assert.equal(cards.status, 200, cards.text);
      const titles = (cards.body.data.items as Json[]).filter((i) => i.kind === 'practice').map((i) => i.practice.title);
      assert.ok(titles.includes(`${SCENARIO.title}：告知冷静期`), JSON.stringify(titles));
    });

    test('lists: one’s own sessions; admins anyone’s with user_id; per-scenario criterion rates for admins', async () => {
      const own = await ts.api.get('/api/roleplay/sessions', { token: rep.token });
      assert.equal(own.status, 200);
      assert.ok(own.body.data.items.every((s: Json) => s.user.id === rep.id));
      assert.ok(own.body.data.items.some((s: Json) => s.id === session.id && s.status === 'finished' && s.score === 60 && s.turn_count === 7));
      assert.equal((await ts.api.get(`/api/roleplay/sessions?user_id=${rep.id}`, { token: other.token })).body.data.total, 0, 'user_id is for admins');
      const byAdmin = await ts.api.get(`/api/roleplay/sessions?user_id=${rep.id}`, { token: admin() });
      assert.ok(byAdmin.body.data.items.some((s: Json) => s.id === session.id));
      const stats = await ts.api.get(`/api/roleplay/scenarios/${scenarioId}/stats`, { token: admin() });
      assert.equal(stats.status, 200, stats.text);
      assert.equal(stats.body.data.finished, 1);
      assert.deepEqual(
        stats.body.data.criteria.map((c: Json) => [c.key, c.rate]),
        [
          ['disclose_risk', 1],
          ['ask_risk', 1],
          ['cooling_off', 0],
          ['empathy', 0],
        ],
      );
      assert.equal((await ts.api.get(`/api/roleplay/scenarios/${scenarioId}/stats`, { token: rep.token })).status, 403);
    });
  });

  test('a session allows max_turns rep turns, then 409 roleplay.turn_limit', async () => {
    const id = await createScenario(ts, { max_turns: 1 });
    const s = (await ts.api.post('/api/roleplay/sessions', { token: rep.token, body: { scenario_id: id } })).body.data;
    assert.equal((await turn(rep.token, s.id, '您好')).status, 200);
    const over = await turn(rep.token, s.id, '还有');
    assert.equal(over.status, 409);
    assert.equal(over.body.error, 'roleplay.turn_limit');
    assert.equal((await ts.api.post('/api/roleplay/sessions', { token: rep.token, body: { scenario_id: 999_999 } })).status, 400);
  });
});
