// GET /api/learning/my-position: the caller's position, its knowledge items in order, and progress on its courses.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';
import type { MyPosition } from '../../contract/learning.js';

let ts: TestServer;

before(async () => {
  ts = await startTestServer();
});
after(() => ts.close());

async function created(path: string, body: Record<string, unknown>): Promise<number> {
  const res = await ts.api.post(path, { token: ts.adminToken, body });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id;
}

const mine = async (token: string) => {
  const res = await ts.api.get('/api/learning/my-position', { token });
  assert.equal(res.status, 200, res.text);
  return res.body.data as MyPosition;
};

describe('my position', () => {
  test('requires a token', async () => {
    assert.equal((await ts.api.get('/api/learning/my-position')).status, 401);
  });

  test('a user without a position gets an empty answer, not an error', async () => {
    const me = await ts.user();
    assert.deepEqual(await mine(me.token), { position: null, items: [], mandatory_count: 0, mandatory_courses: 0, mandatory_completed: 0 });
  });

  test('lists the items in order with progress on courses; completing a course counts towards the mandatory ones', async () => {
    const basics = await created('/api/courses', { title: 'Compliance basics' });
    const optional = await created('/api/courses', { title: 'Negotiation' });
    const product = await created('/api/products', { name: 'Steady income fund', code: 'SIF-MP', category: 'funds' });
    const positionId = await created('/api/system/positions', {
      name: 'Branch adviser',
      description: 'Advises clients at the counter',
      knowledge: [
        { title: 'Compliance basics', kind: 'course', ref_id: basics },
        { title: 'Steady income fund', kind: 'product', ref_id: product },
        { title: 'Negotiation', kind: 'course', ref_id: optional, is_mandatory: false },
        { title: 'Know the branch opening hours', kind: 'text' },
      ],
    });
    const me = await ts.user('employee', { position_id: positionId });

    const before = await mine(me.token);
    assert.deepEqual(before.position, { id: positionId, name: 'Branch adviser', description: 'Advises clients at the counter' });
    assert.deepEqual(
      before.items.map((i) => [i.title, i.kind, i.ref_id, i.is_mandatory, i.progress]),
      [
        ['Compliance basics', 'course', basics, true, 'not_started'],
        ['Steady income fund', 'product', product, true, null],
        ['Negotiation', 'course', optional, false, 'not_started'],
        ['Know the branch opening hours', 'text', null, true, null],
      ],
    );
    assert.deepEqual([before.mandatory_count, before.mandatory_courses, before.mandatory_completed], [3, 1, 0]);

    for (const [course, status] of [[basics, 'completed'], [optional, 'completed']] as const) {
      const res = await ts.api.put(`/api/learning/progress/${course}`, { token: me.token, body: { status } });
      assert.equal(res.status, 200, res.text);
    }
    const after = await mine(me.token);
    assert.deepEqual(after.items.map((i) => i.progress), ['completed', null, 'completed', null]);
    assert.deepEqual([after.mandatory_count, after.mandatory_courses, after.mandatory_completed], [3, 1, 1], 'the optional course does not count');

    // Another user on the same position has their own progress.
    const colleague = await ts.user('employee', { position_id: positionId });
    assert.deepEqual((await mine(colleague.token)).items.map((i) => i.progress), ['not_started', null, 'not_started', null]);
  });

  test('an item naming a course no longer offered (soft-deleted) has no progress', async () => {
    const gone = await created('/api/courses', { title: 'Old course' });
    const positionId = await created('/api/system/positions', { name: 'Teller', knowledge: [{ title: 'Old course', kind: 'course', ref_id: gone }] });
    assert.equal((await ts.api.delete(`/api/courses/${gone}`, { token: ts.adminToken })).status, 200);
    const me = await ts.user('employee', { position_id: positionId });
    const answer = await mine(me.token);
    assert.equal(answer.items[0]!.progress, null);
    assert.deepEqual([answer.mandatory_count, answer.mandatory_courses, answer.mandatory_completed], [1, 0, 0]);
  });
});
