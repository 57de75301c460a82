import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';

describe('notifications', () => {
  let s: TestServer;
  let alice: { id: number; username: string; token: string };
  let bob: { id: number; username: string; token: string };
  let otherAdmin: { id: number; token: string };
  let disabled: { id: number; token: string };
  before(async () => {
    s = await startTestServer();
    alice = await s.user('employee', { full_name: 'Alice Wang' });
    bob = await s.user('employee', { full_name: 'Bob Chen' });
    otherAdmin = await s.user('admin');
    disabled = await s.user('employee', { full_name: 'Alice Wang' });
    await s.api.put(`/api/system/users/${disabled.id}`, { token: s.adminToken, body: { status: 'disabled' } });
  });
  after(() => s.close());

  const send = (body: Record<string, unknown>) => s.api.post('/api/notifications', { token: s.adminToken, body });
  const list = async (token: string, query = '') => (await s.api.get(`/api/notifications${query}`, { token })).body.data;
  const unread = async (token: string) => (await s.api.get('/api/notifications/unread-count', { token })).body.data.unread;

  test('a notice to employees reaches every active employee only', async () => {
    const res = await send({ audience: 'employees', title: 'New exam published', content: 'Fund basics', link: '/exams/1' });
    assert.equal(res.status, 201);
    assert.equal(res.body.data.sent, 2);
    const [n] = await list(alice.token);
    assert.equal(n.title, 'New exam published');
    assert.equal(n.content, 'Fund basics');
    assert.equal(n.link, '/exams/1');
    assert.equal(n.read, false);
    assert.equal(n.user_id, alice.id);
    assert.equal(typeof n.type, 'string');
    assert.match(n.created_at, /\.\d{3}Z$/);
    assert.equal((await list(otherAdmin.token)).length, 0);
  });

  test('an administrative notice reaches every active admin', async () => {
    const res = await send({ audience: 'admins', title: 'Material suggested' });
    assert.equal(res.body.data.sent, 2);
    assert.equal((await list(otherAdmin.token))[0].title, 'Material suggested');
    assert.equal((await list(bob.token)).some((n: { title: string }) => n.title === 'Material suggested'), false);
  });

  test('owner-name assignment matches full_name or username of active users; empty and unassigned send nothing', async () => {
    assert.equal((await send({ owner: 'Alice Wang', title: 'Task for Alice' })).body.data.sent, 1);
    assert.equal((await send({ owner: bob.username, title: 'Task for Bob' })).body.data.sent, 1);
    for (const owner of ['', '  ', 'unassigned', '未分配', 'Nobody Here']) {
      assert.equal((await send({ owner, title: 'Nobody' })).body.data.sent, 0, owner);
    }
    assert.equal((await list(alice.token))[0].title, 'Task for Alice');
    assert.equal((await list(bob.token))[0].title, 'Task for Bob');
  });

  test('a directed notice reaches one user; user id 0 is ignored', async () => {
    assert.equal((await send({ user_id: bob.id, title: 'Just for Bob' })).body.data.sent, 1);
    assert.equal((await send({ user_id: 0, title: 'To nobody' })).body.data.sent, 0);
    assert.equal((await send({ user_id: 99999, title: 'To nobody' })).body.data.sent, 0);
    assert.equal((await list(bob.token))[0].title, 'Just for Bob');
    assert.equal((await send({ title: 'no target' })).status, 400);
    assert.equal((await send({ user_id: bob.id })).status, 400);
    assert.equal((await s.api.post('/api/notifications', { token: bob.token, body: { user_id: bob.id, title: 'x' } })).status, 403);
  });

  test('newest first (created_at, then id), unread_only, unread count, at most 100', async () => {
    for (let i = 0; i < 105; i++) await send({ user_id: alice.id, title: `bulk ${i}` });
    const all = await list(alice.token);
    assert.equal(all.length, 100);
    assert.equal(all[0].title, 'bulk 104');
    for (let i = 1; i < all.length; i++) {
      const [a, b] = [all[i - 1], all[i]];
      assert.ok(a.created_at > b.created_at || (a.created_at === b.created_at && a.id > b.id));
    }
    const total = await unread(alice.token);
    assert.equal(total, 107);
    const one = all[0];
    const read = await s.api.put(`/api/notifications/${one.id}/read`, { token: alice.token });
    assert.deepEqual(read.body.data, { id: one.id, read: true });
    assert.equal(await unread(alice.token), 106);
    const unreadList = await list(alice.token, '?unread_only=true');
    assert.ok(unreadList.every((n: { read: boolean }) => n.read === false));
    assert.ok(!unreadList.some((n: { id: number }) => n.id === one.id));
    assert.equal((await list(alice.token, '?unread_only=false')).length, 100);
  });

  test('read of a missing notification is 404, of another user’s 403; read-all marks only mine', async () => {
    const bobs = await list(bob.token);
    assert.equal((await s.api.put(`/api/notifications/${bobs[0].id}/read`, { token: alice.token })).status, 403);
    assert.equal((await s.api.put('/api/notifications/987654/read', { token: alice.token })).status, 404);
    const own = (await list(alice.token))[0];
    const readBack = await s.api.get(`/api/notifications/${own.id}`, { token: alice.token });
    assert.deepEqual(readBack.body.data, own);
    assert.equal((await s.api.get(`/api/notifications/${bobs[0].id}`, { token: alice.token })).status, 403);
    assert.equal((await s.api.get('/api/notifications/987654', { token: alice.token })).status, 404);
    const all = await s.api.put('/api/notifications/read-all', { token: alice.token });
    assert.deepEqual(all.body.data, { read: true });
    assert.equal(await unread(alice.token), 0);
    assert.ok((await unread(bob.token)) > 0);
    assert.equal((await s.api.get('/api/notifications')).status, 401);
  });
});
