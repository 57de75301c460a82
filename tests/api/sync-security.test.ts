// A central server reachable over a network: login throttling per account and per address, lockouts an admin can
// lift (never every admin locked out), X-Forwarded-For honoured only with TRUST_PROXY, and the audit log.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../support/server.js';

let ts: TestServer;
let plain: TestServer;

const login = (server: TestServer, username: string, password: string, from?: string) =>
  server.api.post('/api/auth/login', { body: { username, password }, headers: from ? { 'x-forwarded-for': from } : {} });

before(async () => {
  ts = await startTestServer({ trustProxy: true });
  plain = await startTestServer();
});
after(async () => {
  await ts.close();
  await plain.close();
});

describe('login throttling', () => {
  test('five failures lock an account (429 with Retry-After), even for the right password; an admin lifts it', async () => {
    const eve = await ts.user('employee');
    for (let i = 0; i < 5; i++) assert.equal((await login(ts, eve.username, 'wrong', '10.1.0.1')).status, 401);
    const locked = await login(ts, eve.username, 'secret-pass', '10.1.0.2');
    assert.equal(locked.status, 429, locked.text);
    assert.equal(locked.body.error, 'auth.login_locked');
    assert.ok(Number(locked.headers.get('retry-after')) > 0);

    const lockouts = (await ts.api.get('/api/security/lockouts', { token: ts.adminToken })).body.data as { key: string }[];
    const key = `account:${eve.username}`;
    assert.ok(lockouts.some((l) => l.key === key));
    assert.equal((await ts.api.delete(`/api/security/lockouts/${encodeURIComponent(key)}`, { token: eve.token })).status, 403);
    assert.equal((await ts.api.delete(`/api/security/lockouts/${encodeURIComponent(key)}`, { token: ts.adminToken })).status, 200);
    assert.equal((await ts.api.delete(`/api/security/lockouts/${encodeURIComponent(key)}`, { token: ts.adminToken })).status, 404);
    assert.equal((await login(ts, eve.username, 'secret-pass', '10.1.0.2')).status, 200);
  });

  test('a username in another case is the same account: no second one, and failures in any case count towards its lock', async () => {
    const lower = await ts.user('employee', {});
    const upper = lower.username.toUpperCase();
    const created = await ts.api.post('/api/system/users', { token: ts.adminToken, body: { username: upper, password: 'other-pass-42', full_name: 'Upper', role: 'employee' } });
    assert.equal(created.status, 409, created.text);
    for (let i = 0; i < 5; i++) assert.equal((await login(ts, i % 2 ? upper : lower.username, 'wrong', '10.4.0.1')).status, 401);
    assert.equal((await login(ts, lower.username, 'secret-pass', '10.4.0.2')).status, 429, 'the account is locked whatever case failed');
    assert.equal((await login(ts, upper, 'secret-pass', '10.4.0.3')).status, 429);
  });

  test('an admin account is locked only from the address that failed', async () => {
    for (let i = 0; i < 5; i++) assert.equal((await login(ts, 'admin', 'wrong', '10.2.0.1')).status, 401);
    assert.equal((await login(ts, 'admin', ADMIN_PASSWORD, '10.2.0.1')).status, 429);
    assert.equal((await login(ts, 'admin', ADMIN_PASSWORD, '10.2.0.2')).status, 200);
  });

  test('without TRUST_PROXY, X-Forwarded-For is ignored: failures count against the real address', async () => {
    const dan = await plain.user('employee');
    for (let i = 0; i < 5; i++) await login(plain, dan.username, 'wrong', `10.3.0.${i}`);
    const lockouts = (await plain.api.get('/api/security/lockouts', { token: plain.adminToken })).body.data as { key: string; failures: number }[];
    assert.ok(lockouts.some((l) => l.key === `account:${dan.username}`));
    const addresses = (await plain.api.get('/api/security/audit?action=auth.login_locked', { token: plain.adminToken })).body.data as { items: { address: string }[] };
    assert.ok(addresses.items.every((entry) => !entry.address.startsWith('10.3.')));
  });

  test('concurrent failures are each counted, and no more passwords are tried than the limit', async () => {
    const victim = await ts.user('employee');
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => login(ts, victim.username, `wrong-${i}`, '10.5.0.1')));
    const statuses = results.map((r) => r.status).sort();
    assert.deepEqual(statuses, [...Array(5).fill(401), ...Array(7).fill(429)], 'five passwords checked, the rest refused before their check');
    const lockouts = (await ts.api.get('/api/security/lockouts', { token: ts.adminToken })).body.data as { key: string; failures: number }[];
    assert.equal(lockouts.find((l) => l.key === `account:${victim.username}`)?.failures, 12, 'every attempt counted');
    assert.equal((await login(ts, victim.username, 'secret-pass', '10.5.0.2')).status, 429, 'the right password is refused too');
  });

  test('a right password takes its attempt back: an office behind one address is never locked by its own logins', async () => {
    const clerk = await ts.user('employee');
    for (let i = 0; i < 60; i++) assert.equal((await login(ts, clerk.username, 'secret-pass', '10.7.0.1')).status, 200);
  });

  test('behind TRUST_PROXY, only the address the proxy appended counts, not one the client wrote itself', async () => {
    const mallory = await ts.user('employee');
    for (let i = 0; i < 5; i++) assert.equal((await login(ts, mallory.username, 'wrong', `10.9.9.${i}, 10.6.0.1`)).status, 401);
    const audit = (await ts.api.get('/api/security/audit?action=auth.login_locked&size=100', { token: ts.adminToken })).body.data as { items: { target: string; address: string }[] };
    assert.equal(audit.items.find((entry) => entry.target === `account:${mallory.username}`)?.address, '10.6.0.1');
  });

  test('the audit log is for admins and lists lockouts and lifts', async () => {
    assert.equal((await ts.api.get('/api/security/audit')).status, 401);
    const employee = await ts.user('employee');
    assert.equal((await ts.api.get('/api/security/audit', { token: employee.token })).status, 403);
    assert.equal((await ts.api.get('/api/security/audit?device_id=abc', { token: ts.adminToken })).status, 400);
    const page = (await ts.api.get('/api/security/audit?size=50', { token: ts.adminToken })).body.data as { items: { action: string; username: string | null; address: string | null }[] };
    const actions = page.items.map((e) => e.action);
    assert.ok(actions.includes('auth.login_locked'));
    const lifted = page.items.find((e) => e.action === 'auth.lockout_lifted')!;
    assert.equal(lifted.username, 'admin');
    assert.ok(lifted.address);
  });
});
