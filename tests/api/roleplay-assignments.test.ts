// A role-play scenario as an assignment's item (docs/api/assignments.md, docs/api/roleplay.md): assigned like an
// exam, shown in the rep's own tasks and the admin's progress, completed by a passed session and not by a failed one.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';
import { REP_LINES, createScenario } from './roleplay-fixtures.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

describe('role-play assignments', () => {
  let ts: TestServer;
  let rep: { id: number; token: string };
  let scenarioId: number;
  let assignment: Json;

  const mine = async () => ((await ts.api.get('/api/assignments/mine', { token: rep.token })).body.data as Json[]).find((a) => a.id === assignment.id);
  const progress = async () => (await ts.api.get(`/api/assignments/${assignment.id}/progress`, { token: ts.adminToken })).body.data;
  const play = async (lines: string[]) => {
    const session = (await ts.api.post('/api/roleplay/sessions', { token: rep.token, body: { scenario_id: scenarioId } })).body.data;
    for (const text of lines) assert.equal((await ts.api.post(`/api/roleplay/sessions/${session.id}/turns`, { token: rep.token, body: { text } })).status, 200);
    const finished = await ts.api.post(`/api/roleplay/sessions/${session.id}/finish`, { token: rep.token });
    assert.equal(finished.status, 200, finished.text);
    return finished.body.data;
  };

  before(async () => {
    ts = await startTestServer();
    rep = await ts.user('employee');
    scenarioId = await createScenario(ts);
    const res = await ts.api.post('/api/assignments', {
      token: ts.adminToken,
      body: { item: { type: 'roleplay', id: scenarioId }, target: { user_ids: [rep.id] }, due_at: new Date(Date.now() + 5 * 86_400_000).toISOString() },
    });
    assert.equal(res.status, 201, res.text);
    assignment = res.body.data;
  });
  after(async () => {
    await ts?.close();
  });

  test('the assignment names the scenario; an unknown or disabled scenario is refused', async () => {
    assert.deepEqual(assignment.item, { type: 'roleplay', id: scenarioId, name: '稳盈理财：谨慎客户的保本顾虑' });
    assert.equal(assignment.title, '稳盈理财：谨慎客户的保本顾虑');
    const unknown = await ts.api.post('/api/assignments', { token: ts.adminToken, body: { item: { type: 'roleplay', id: 999_999 }, target: { user_ids: [rep.id] }, due_at: new Date(Date.now() + 86_400_000).toISOString() } });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error, 'assignment.item_not_found');
  });

  test('pending in the rep’s tasks until a passed session; a failed one does not complete it', async () => {
    assert.equal((await mine()).status, 'pending');
    assert.deepEqual((await mine()).item, { type: 'roleplay', id: scenarioId, name: '稳盈理财：谨慎客户的保本顾虑' });
    const failed = await play(['你好']);
    assert.equal(failed.passed, false);
    assert.equal((await mine()).status, 'pending');
    assert.equal((await progress()).completed, 0);
    const passed = await play(REP_LINES);
    assert.equal(passed.passed, true);
    const done = await mine();
    assert.equal(done.status, 'done');
    assert.equal(done.done_at, passed.finished_at);
    const after = await progress();
    assert.equal(after.completed, 1);
    assert.equal((after.people as Json[]).find((p) => p.user_id === rep.id).status, 'done');
  });
});
