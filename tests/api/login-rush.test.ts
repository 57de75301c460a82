// Issue 33, item 5: a rush of right passwords from one address (a branch office behind NAT, an HQ proxy) lets
// everyone in; wrong ones still lock as documented (5 per account, 50 per address), and concurrent wrong guesses
// still cannot try more passwords than the limit.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../support/server.js';

let ts: TestServer;
let candidates: string[] = [];

const login = (username: string, password: string, from: string) =>
  ts.api.post('/api/auth/login', { body: { username, password }, headers: { 'x-forwarded-for': from } });

/** One user made through the API, the rest copied from its row: 119 more password hashes would only slow the test. */
async function createUsers(count: number, prefix: string): Promise<string[]> {
  const first = await ts.api.post('/api/system/users', { token: ts.adminToken, body: { username: `${prefix}0`, password: 'secret-pass', full_name: `${prefix}0`, role: 'employee' } });
  assert.equal(first.status, 201, first.text);
  const { id: _id, ...row } = (await ts.server.db('users').where({ id: first.body.data.id }).first()) as Record<string, unknown>;
  const names = Array.from({ length: count }, (_, i) => `${prefix}${i}`);
  for (const username of names.slice(1)) {
    await ts.server.db('users').insert({ ...row, username, full_name: username, ...('gid' in row ? { gid: crypto.randomUUID() } : {}) });
  }
  return names;
}

const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

before(async () => {
  ts = await startTestServer({ trustProxy: true });
  candidates = await createUsers(120, 'rush');
});
after(async () => {
  await ts.close();
});

describe('a login rush from one address', () => {
  test('120 candidates logging in at the same moment through one proxy address all get in, and the admin after them', async () => {
    const results = await Promise.all(candidates.map((username) => login(username, 'secret-pass', '10.33.0.1')));
    assert.deepEqual(tally(results.map((r) => r.status)), { 200: 120 }, results.find((r) => r.status !== 200)?.text);
    assert.ok(results.every((r) => typeof r.body.data.token === 'string'));
    assert.equal((await login('admin', ADMIN_PASSWORD, '10.33.0.1')).status, 200, 'the admin is not locked out of the address');
    const lockouts = (await ts.api.get('/api/security/lockouts', { token: ts.adminToken })).body.data as { key: string }[];
    assert.deepEqual(lockouts.filter((l) => l.key.includes('10.33.0.1')), []);
  });
});

describe('wrong passwords amid a rush from one address', () => {
  test('concurrent wrong guesses from one address still stop at 50; then even a right password is refused there', async () => {
    const results = await Promise.all(candidates.slice(0, 60).map((username) => login(username, 'wrong', '10.33.0.3')));
    assert.deepEqual(tally(results.map((r) => r.status)), { 401: 50, 429: 10 }, 'fifty passwords checked, the rest refused before their check');
    const refused = results.find((r) => r.status === 429)!;
    assert.equal(refused.body.error, 'auth.login_locked');
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    assert.equal((await login(candidates[110]!, 'secret-pass', '10.33.0.3')).status, 429, 'the address is locked');
    assert.equal((await login(candidates[110]!, 'secret-pass', '10.33.0.4')).status, 200, 'other addresses are not');
  });

  test('concurrent wrong guesses at one account still stop at 5, amid right logins of others from the same address', async () => {
    const target = candidates[119]!;
    const guesses = Array.from({ length: 12 }, (_, i) => login(target, `wrong-${i}`, '10.33.0.5'));
    const others = candidates.slice(0, 10).map((username) => login(username, 'secret-pass', '10.33.0.5'));
    const [guessed, rest] = [await Promise.all(guesses), await Promise.all(others)];
    assert.deepEqual(tally(guessed.map((r) => r.status)), { 401: 5, 429: 7 });
    assert.deepEqual(tally(rest.map((r) => r.status)), { 200: 10 });
    assert.equal((await login(target, 'secret-pass', '10.33.0.6')).status, 429, 'the account is locked everywhere');
  });
});
