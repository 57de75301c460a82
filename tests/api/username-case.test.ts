// One person, one name: usernames are unique whatever their case, login takes any case, and an install whose users
// already differ only in case starts anyway, keeps them, and tells its admins (users/username-case.ts).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_PASSWORD, startTestServer, usingPostgres, type TestServer } from '../support/server.js';

describe('usernames are unique whatever their case', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  const create = (username: string, extra: Record<string, unknown> = {}) =>
    s.api.post('/api/system/users', { token: s.adminToken, body: { username, password: 'secret-pass', full_name: username, ...extra } });
  const login = (username: string, password: string) => s.api.post('/api/auth/login', { body: { username, password } });

  test('ADMIN beside admin and EMPA beside empa are 409; a rename onto another case is 409 too', async () => {
    assert.equal((await create('ADMIN', { role: 'admin' })).status, 409);
    assert.equal((await create('empa')).status, 201);
    const clash = await create('EMPA');
    assert.equal(clash.status, 409);
    assert.equal(clash.body.error, 'conflict');
    const other = await create('empb');
    assert.equal((await s.api.put(`/api/system/users/${other.body.data.id}`, { token: s.adminToken, body: { username: 'EmPa' } })).status, 409);
    // Changing only the case of one's own name is allowed.
    const renamed = await s.api.put(`/api/system/users/${other.body.data.id}`, { token: s.adminToken, body: { username: 'EMPB' } });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.data.username, 'EMPB');
  });

  test('login accepts any case of the username and answers the stored spelling', async () => {
    assert.equal((await create('Li.Wei')).status, 201);
    for (const spelling of ['Li.Wei', 'li.wei', 'LI.WEI']) {
      const res = await login(spelling, 'secret-pass');
      assert.equal(res.status, 200, spelling);
      assert.equal(res.body.data.user.username, 'Li.Wei');
    }
    assert.equal((await login('ADMIN', ADMIN_PASSWORD)).status, 200);
    assert.equal((await login('LI.WEI', 'wrong-pass')).status, 401);
  });

  test('20 simultaneous creates of one name in different cases make one user', async () => {
    const spellings = Array.from({ length: 20 }, (_, i) => [...'racer'].map((c, j) => ((i >> j) & 1 ? c.toUpperCase() : c)).join(''));
    const results = await Promise.all(spellings.map((name) => create(name)));
    const statuses = results.map((r) => r.status).sort();
    assert.equal(statuses.filter((x) => x === 201).length, 1, JSON.stringify(statuses));
    assert.ok(results.every((r) => r.status === 201 || (r.status === 409 && r.body.error === 'conflict')), JSON.stringify(statuses));
    const listed = (await s.api.get('/api/system/users?q=racer', { token: s.adminToken })).body.data as { username: string }[];
    assert.equal(listed.filter((u) => u.username.toLowerCase() === 'racer').length, 1);
  });
});

describe('an install whose usernames already clash in case', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  const indexExists = async () => {
    const db = s.server.db;
    const rows = usingPostgres
      ? await db('pg_indexes').whereRaw('schemaname = current_schema()').andWhere({ indexname: 'users_username_lower_unique' })
      : await db('sqlite_master').where({ type: 'index', name: 'users_username_lower_unique' });
    return rows.length > 0;
  };

  test('starts, keeps both rows, tells the admins, and makes the index once a rename ends the clash', async () => {
    assert.equal(await indexExists(), true);
    const twin = await s.api.post('/api/system/users', { token: s.adminToken, body: { username: 'twin-b', password: 'twin-pass-2', full_name: 'Twin B' } });
    const twinId = twin.body.data.id as number;
    // As an install from before the rule: the index gone, two names that differ only in case, the migration not yet run.
    await s.server.db.raw('DROP INDEX users_username_lower_unique');
    await s.server.db('users').where({ id: twinId }).update({ username: 'Admin' });
    await s.server.db('knex_migrations').where({ name: '027_username_caseless' }).delete();
    await s.restart();

    assert.equal(await indexExists(), false);
    const notices = (await s.api.get('/api/notifications', { token: s.adminToken })).body.data as { title: string; content: string; type: string }[];
    const notice = notices.find((n) => n.content.includes('admin / Admin'));
    assert.ok(notice, JSON.stringify(notices));
    assert.equal(notice.type, 'admin_notice');

    // Each signs in with its exact spelling; any other spelling names neither.
    const asAdmin = await s.api.post('/api/auth/login', { body: { username: 'admin', password: ADMIN_PASSWORD } });
    assert.equal(asAdmin.body.data.user.username, 'admin');
    const asTwin = await s.api.post('/api/auth/login', { body: { username: 'Admin', password: 'twin-pass-2' } });
    assert.equal(asTwin.body.data.user.id, twinId);
    assert.equal((await s.api.post('/api/auth/login', { body: { username: 'ADMIN', password: ADMIN_PASSWORD } })).status, 401);
    // Still no new clash while the index is missing.
    assert.equal((await s.api.post('/api/system/users', { token: s.adminToken, body: { username: 'ADMIN', password: 'secret-pass', full_name: 'x' } })).status, 409);

    const renamed = await s.api.put(`/api/system/users/${twinId}`, { token: s.adminToken, body: { username: 'twin-b' } });
    assert.equal(renamed.status, 200);
    assert.equal(await indexExists(), true);
    assert.equal((await s.api.post('/api/auth/login', { body: { username: 'ADMIN', password: ADMIN_PASSWORD } })).status, 200);
  });
});
