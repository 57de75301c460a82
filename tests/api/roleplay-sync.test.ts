// Role-play across sync (real central and branch server processes, as tests/api/sync.test.ts): a scenario written
// centrally comes down to the branch laptop, with its assignment; a session played there goes up once finished,
// exactly once, and completes the assignment centrally too.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startNode, type Node } from '../support/sync-nodes.js';
import { usingPostgres } from '../support/server.js';
import { REP_LINES, SCENARIO } from './roleplay-fixtures.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
const PASSWORD = 'branch-pass-1';

async function ok(res: { status: number; text: string; body: { data: unknown } }, status = 200): Promise<Json> {
  assert.equal(res.status, status, res.text);
  return res.body.data;
}

describe(`role-play sync (central on ${usingPostgres ? 'PostgreSQL' : 'SQLite'})`, () => {
  let central: Node;
  let branch: Node;
  let centralScenario: Json;
  let assignmentId: number;

  const run = (node: Node) => node.api.post('/api/sync/run', { token: node.adminToken });

  before(async () => {
    [central, branch] = await Promise.all([startNode({ postgres: usingPostgres }), startNode({ postgres: false })]);
    const alice = await ok(await central.api.post('/api/system/users', { token: central.adminToken, body: { username: 'alice', password: PASSWORD, full_name: '李丽', role: 'employee' } }), 201);
    const productId = (await ok(await central.api.post('/api/products', { token: central.adminToken, body: { code: 'WY-1', name: '稳盈理财', category: 'wealth', risk_level: 'R2' } }), 201)).id;
    centralScenario = await ok(await central.api.post('/api/roleplay/scenarios', { token: central.adminToken, body: { ...SCENARIO, product_id: productId } }), 201);
    assignmentId = (
      await ok(
        await central.api.post('/api/assignments', {
          token: central.adminToken,
          body: { item: { type: 'roleplay', id: centralScenario.id }, target: { user_ids: [alice.id] }, due_at: new Date(Date.now() + 5 * 86_400_000).toISOString() },
        }),
        201,
      )
    ).id;
    const { enrolment_token } = await ok(await central.api.post('/api/sync/devices', { token: central.adminToken, body: { name: 'Branch laptop' } }), 201);
    await ok(await branch.api.put('/api/sync/config', { token: branch.adminToken, body: { central_url: `http://127.0.0.1:${central.port}`, enrolment_token } }));
    await ok(await run(branch));
  });
  after(async () => {
    await branch?.close();
    await central?.close();
  });

  test('the scenario and its assignment come down; a session played on the branch goes up once and completes the assignment', async () => {
    const alice = await branch.api.login('alice', PASSWORD);
    const scenarios = (await ok(await branch.api.get('/api/roleplay/scenarios', { token: alice }))) as Json[];
    assert.equal(scenarios.length, 1);
    const local = scenarios[0];
    assert.equal(local.title, SCENARIO.title);
    assert.deepEqual(local.persona, SCENARIO.persona);
    assert.deepEqual(local.criteria, SCENARIO.criteria);
    assert.deepEqual(local.objections, SCENARIO.objections);
    assert.ok(local.product_id, 'the product reference came down as the branch product');
    const mine = (await ok(await branch.api.get('/api/assignments/mine', { token: alice }))) as Json[];
    assert.deepEqual(mine.map((a) => [a.item.type, a.item.id, a.status]), [['roleplay', local.id, 'pending']]);

    const session = await ok(await branch.api.post('/api/roleplay/sessions', { token: alice, body: { scenario_id: local.id } }), 201);
    for (const text of REP_LINES) await ok(await branch.api.post(`/api/roleplay/sessions/${session.id}/turns`, { token: alice, body: { text } }));
    const summary1 = await ok(await run(branch));
    assert.equal(summary1.conflicts, 0, JSON.stringify(summary1));
    assert.equal((await branch.database()('sync_outbox').where({ entity: 'roleplay_session' })).length, 0, 'an active session stays local');
    const report = await ok(await branch.api.post(`/api/roleplay/sessions/${session.id}/finish`, { token: alice }));
    assert.equal(report.passed, true);

    const summary = await ok(await run(branch));
    assert.equal(summary.conflicts, 0, JSON.stringify(summary));
    // Pushed again (the answer lost on the way): still one.
    await branch.database()('sync_outbox').where({ entity: 'roleplay_session' }).update({ sent_at: null, outcome: null });
    await ok(await run(branch));
    assert.equal((await branch.database()('sync_outbox').where({ entity: 'roleplay_session' })).length, 1);

    const listed = await ok(await central.api.get('/api/roleplay/sessions?size=50', { token: central.adminToken }));
    assert.equal(listed.total, 1);
    const stored = await ok(await central.api.get(`/api/roleplay/sessions/${listed.items[0].id}`, { token: central.adminToken }));
    assert.equal(stored.user.username, 'alice');
    assert.equal(stored.scenario_id, centralScenario.id);
    assert.equal(stored.status, 'finished');
    assert.equal(stored.score, report.score);
    assert.deepEqual(stored.turns, report.turns);
    assert.deepEqual(stored.criteria, report.criteria);
    assert.deepEqual(stored.compliance, report.compliance);
    const progress = await ok(await central.api.get(`/api/assignments/${assignmentId}/progress`, { token: central.adminToken }));
    assert.equal(progress.completed, 1);
  });
});
