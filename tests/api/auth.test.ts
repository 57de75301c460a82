import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import jwt from 'jsonwebtoken';
import argon2 from 'argon2';
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../support/server.js';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('auth, envelope and health', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  test('health answers outside the envelope', async () => {
    const res = await s.api.get('/api/health');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { status: 'ok', service: 'trainbench', version: '1.3.0' });
  });

  test('login returns token, expires_in 28800 by default and the user', async () => {
    const res = await s.api.post('/api/auth/login', { body: { username: 'admin', password: ADMIN_PASSWORD } });
    assert.equal(res.status, 200);
    assert.equal(res.body.error, null);
    assert.equal(res.body.message, 'success');
    assert.equal(res.body.data.expires_in, 28800);
    assert.equal(typeof res.body.data.token, 'string');
    assert.deepEqual(res.body.data.user, { id: 1, username: 'admin', full_name: 'Administrator', role: 'admin' });
    const claims = jwt.decode(res.body.data.token) as jwt.JwtPayload;
    assert.equal(claims.exp! - claims.iat!, 28800);
  });

  test('expires_in follows jwt_expire_minutes at each login', async () => {
    const put = await s.api.put('/api/system/config', { token: s.adminToken, body: { configs: { jwt_expire_minutes: 60 } } });
    assert.equal(put.status, 200);
    const res = await s.api.post('/api/auth/login', { body: { username: 'admin', password: ADMIN_PASSWORD } });
    assert.equal(res.body.data.expires_in, 3600);
    await s.api.put('/api/system/config', { token: s.adminToken, body: { configs: { jwt_expire_minutes: 480 } } });
  });

  test('wrong password and unknown user are 401 in the envelope', async () => {
    for (const body of [{ username: 'admin', password: 'nope' }, { username: 'ghost', password: 'whatever' }]) {
      const res = await s.api.post('/api/auth/login', { body });
      assert.equal(res.status, 401);
      assert.deepEqual(Object.keys(res.body).sort(), ['data', 'error', 'message']);
      assert.equal(res.body.data, null);
      assert.equal(res.body.error, 'unauthorized');
    }
  });

  test('missing or mistyped login fields and malformed JSON are 400, never 500', async () => {
    for (const body of [{}, { username: 'admin' }, { username: 5, password: 'x' }, []]) {
      const res = await s.api.post('/api/auth/login', { body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error, 'validation_failed');
    }
    const bad = await s.api.post('/api/auth/login', { raw: '{"username": "admin",', headers: { 'content-type': 'application/json' } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error, 'invalid_json');
    assert.ok(!bad.text.includes('at '), 'no stack trace');
  });

  test('oversized JSON bodies are 413 in the envelope', async () => {
    const res = await s.api.post('/api/auth/login', { raw: JSON.stringify({ username: 'x'.repeat(3 * 1024 * 1024), password: 'y' }), headers: { 'content-type': 'application/json' } });
    assert.equal(res.status, 413);
    assert.equal(res.body.error, 'payload_too_large');
  });

  test('/auth/me returns the current user with ISO timestamps and integer ids', async () => {
    const res = await s.api.get('/api/auth/me', { token: s.adminToken });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.id, 1);
    assert.equal(res.body.data.username, 'admin');
    assert.equal(res.body.data.role, 'admin');
    assert.equal(res.body.data.status, 'active');
    assert.match(res.body.data.created_at, ISO_MS);
    assert.equal(res.body.data.password_hash, undefined);
    assert.equal(res.body.data.password, undefined);
  });

  test('PUT /auth/me stores the interface language, returned by /auth/me on every later login', async () => {
    const user = await s.user();
    const me = await s.api.get('/api/auth/me', { token: user.token });
    assert.equal(me.body.data.locale, null, 'no language chosen yet');

    const put = await s.api.put('/api/auth/me', { token: user.token, body: { locale: 'en' } });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.body.data.locale, 'en');
    assert.equal(put.body.data.username, user.username);
    const again = await s.api.login(user.username, 'secret-pass');
    assert.equal((await s.api.get('/api/auth/me', { token: again })).body.data.locale, 'en');
    const listed = await s.api.get(`/api/system/users/${user.id}`, { token: s.adminToken });
    assert.equal(listed.body.data.locale, 'en', 'admins see it too');

    assert.equal((await s.api.put('/api/auth/me', { token: user.token, body: {} })).body.data.locale, 'en', 'omitted keeps it');
    assert.equal((await s.api.put('/api/auth/me', { token: user.token, body: { locale: null } })).body.data.locale, null, 'null forgets it');
    assert.equal((await s.api.put('/api/auth/me', { token: user.token, body: { locale: 'zh-CN' } })).body.data.locale, 'zh-CN');
  });

  test('PUT /auth/me refuses unknown languages and fields (400) and anonymous callers (401)', async () => {
    const user = await s.user();
    for (const body of [{ locale: 'fr' }, { locale: 7 }, { role: 'admin' }, { locale: 'en', status: 'disabled' }]) {
      const res = await s.api.put('/api/auth/me', { token: user.token, body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error, 'validation_failed');
    }
    const me = await s.api.get('/api/auth/me', { token: user.token });
    assert.equal(me.body.data.role, 'employee', 'nothing else can be changed through it');
    assert.equal(me.body.data.locale, null);
    assert.equal((await s.api.put('/api/auth/me', { body: { locale: 'en' } })).status, 401);
  });

  test('missing, malformed, forged and expired tokens are 401', async () => {
    const forged = jwt.sign({ role: 'admin' }, 'another-secret', { subject: '1', expiresIn: 600 });
    const expired = jwt.sign({ role: 'admin', exp: Math.floor(Date.now() / 1000) - 10 }, s.config.jwtSecret!, { subject: '1' });
    const none = jwt.sign({ role: 'admin' }, '', { algorithm: 'none', subject: '1' });
    const cases: [string, Record<string, string>][] = [
      ['missing', {}],
      ['not bearer', { authorization: `Basic ${Buffer.from('admin:x').toString('base64')}` }],
      ['garbage', { authorization: 'Bearer not.a.jwt' }],
      ['forged', { authorization: `Bearer ${forged}` }],
      ['expired', { authorization: `Bearer ${expired}` }],
      ['alg none', { authorization: `Bearer ${none}` }],
    ];
    for (const [label, headers] of cases) {
      const res = await s.api.get('/api/auth/me', { headers });
      assert.equal(res.status, 401, label);
      assert.equal(res.body.error, 'unauthorized', label);
    }
  });

  test('a user disabled after login is refused with 401; re-enabled works again', async () => {
    const u = await s.user();
    assert.equal((await s.api.get('/api/auth/me', { token: u.token })).status, 200);
    await s.api.put(`/api/system/users/${u.id}`, { token: s.adminToken, body: { status: 'disabled' } });
    assert.equal((await s.api.get('/api/auth/me', { token: u.token })).status, 401);
    const login = await s.api.post('/api/auth/login', { body: { username: u.username, password: 'secret-pass' } });
    assert.equal(login.status, 403);
    assert.equal(login.body.error, 'account_disabled');
    await s.api.put(`/api/system/users/${u.id}`, { token: s.adminToken, body: { status: 'active' } });
    assert.equal((await s.api.get('/api/auth/me', { token: u.token })).status, 200);
  });

  test('an employee on an admin endpoint gets 403; a demotion applies at once', async () => {
    const u = await s.user('admin');
    assert.equal((await s.api.get('/api/system/users', { token: u.token })).status, 200);
    await s.api.put(`/api/system/users/${u.id}`, { token: s.adminToken, body: { role: 'employee' } });
    const res = await s.api.get('/api/system/users', { token: u.token });
    assert.equal(res.status, 403);
    assert.equal(res.body.error, 'forbidden');
  });

  test('unknown endpoints are 404 in the envelope; wrong methods 405', async () => {
    const res = await s.api.get('/api/does-not-exist', { token: s.adminToken });
    assert.equal(res.status, 404);
    assert.equal(res.body.error, 'not_found');
    const method = await s.api.request('PATCH', '/api/health');
    assert.equal(method.status, 405);
    assert.equal(method.body.data, null);
  });

  test('passwords are stored hashed with argon2id', async () => {
    const row = await s.server.db('users').where({ username: 'admin' }).first('password_hash');
    assert.match(row.password_hash, /^\$argon2id\$/);
    assert.ok(!row.password_hash.includes(ADMIN_PASSWORD));
    assert.match(row.password_hash, /\$m=47104,p=1,t=1\$/, "OWASP's 46 MiB profile: its block is unmapped after each hash");
  });

  test('a hash of an earlier profile still logs in, and is replaced by one of the current profile', async () => {
    const user = await s.user();
    const earlier = await argon2.hash('secret-pass', { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 });
    await s.server.db('users').where({ id: user.id }).update({ password_hash: earlier });
    const hashOf = async () => (await s.server.db('users').where({ id: user.id }).first('password_hash')).password_hash as string;
    assert.equal((await s.api.post('/api/auth/login', { body: { username: user.username, password: 'wrong-pass' } })).status, 401);
    assert.equal(await hashOf(), earlier, 'a wrong password changes nothing');
    assert.equal((await s.api.post('/api/auth/login', { body: { username: user.username, password: 'secret-pass' } })).status, 200);
    const current = await hashOf();
    assert.match(current, /\$m=47104,p=1,t=1\$/);
    assert.ok(await argon2.verify(current, 'secret-pass'));
    assert.equal((await s.api.post('/api/auth/login', { body: { username: user.username, password: 'secret-pass' } })).status, 200);
  });
});
