// Two nodes on one PostgreSQL schema (the second a real server of its own in this process): a write on one is seen
// by the other within a second, because the writer's NOTIFY clears the other's read caches (db/cache-bus.ts).
// A disabled user or a demoted admin is refused by both.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startTestServer, usingPostgres, type TestServer } from '../support/server.js';
import { ApiClient } from '../support/client.js';
import { startServer, type RunningServer } from '../../server/start.js';

const WITHIN_A_SECOND_MS = 900;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('read caches across nodes', { skip: !usingPostgres && 'nodes share a database only on PostgreSQL; checked in the PostgreSQL pass' }, () => {
  let a: TestServer;
  let bServer: RunningServer;
  let b: ApiClient;
  let bDir: string;
  before(async () => {
    a = await startTestServer();
    bDir = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-node-b-'));
    bServer = await startServer({ ...a.config, dataDir: bDir, port: 0 });
    b = new ApiClient(bServer.url);
  });
  after(async () => {
    await bServer.close();
    await a.close();
    await fs.rm(bDir, { recursive: true, force: true });
  });

  test('a user disabled on one node is refused on the other within a second', async () => {
    const user = await a.user('employee');
    assert.equal((await b.get('/api/auth/me', { token: user.token })).status, 200, 'node B has the user cached as active');
    assert.equal((await a.api.put(`/api/system/users/${user.id}`, { token: a.adminToken, body: { status: 'disabled' } })).status, 200);
    await pause(WITHIN_A_SECOND_MS);
    assert.equal((await b.get('/api/auth/me', { token: user.token })).status, 401);
  });

  test('an admin demoted on one node loses admin rights on the other within a second', async () => {
    const boss = await a.user('admin');
    assert.equal((await b.get('/api/system/users', { token: boss.token })).status, 200);
    assert.equal((await a.api.put(`/api/system/users/${boss.id}`, { token: a.adminToken, body: { role: 'employee' } })).status, 200);
    await pause(WITHIN_A_SECOND_MS);
    assert.equal((await b.get('/api/system/users', { token: boss.token })).status, 403);
  });

  test('a product renamed on one node is listed with its new name by the other within a second', async () => {
    const created = await a.api.post('/api/products', { token: a.adminToken, body: { name: 'Cache fund', type: 'fund', status: 'active' } });
    assert.equal(created.status, 201, created.text);
    const id = created.body.data.id as number;
    const names = async () => ((await b.get('/api/products?status=all', { token: a.adminToken })).body.data as { id: number; name: string }[]).find((p) => p.id === id)?.name;
    assert.equal(await names(), 'Cache fund');
    assert.equal((await a.api.put(`/api/products/${id}`, { token: a.adminToken, body: { name: 'Renamed fund' } })).status, 200);
    await pause(WITHIN_A_SECOND_MS);
    assert.equal(await names(), 'Renamed fund');
  });
});
