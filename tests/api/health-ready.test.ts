// GET /api/health stays the spec's constant answer; GET /api/health/ready tells a load balancer whether this node can
// serve (its database answers). SIGTERM drains: no new connection, running requests finish, then a clean exit.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startTestServer, usingPostgres, type TestServer } from '../support/server.js';
import { startCli } from '../support/cli.js';
import { until } from '../support/until.js';

describe('health and readiness', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
  });
  after(async () => {
    await ts.close();
  });

  test('GET /api/health keeps the spec shape; /api/health/ready answers 200 with each check', async () => {
    const health = await fetch(`${ts.url}/api/health`);
    assert.deepEqual(await health.json(), { status: 'ok', service: 'trainbench', version: '1.3.0' });
    const ready = await fetch(`${ts.url}/api/health/ready`);
    assert.equal(ready.status, 200);
    assert.deepEqual(await ready.json(), { status: 'ready', checks: { database: 'ok', storage: 'ok' } });
  });

  test('/api/health/ready is 503 naming the database when it cannot be reached', async () => {
    const other = await startTestServer();
    try {
      await other.server.db.destroy();
      const ready = await fetch(`${other.url}/api/health/ready`);
      assert.equal(ready.status, 503);
      const body = (await ready.json()) as { status: string; checks: { database: string } };
      assert.equal(body.status, 'not_ready');
      assert.notEqual(body.checks.database, 'ok');
      assert.equal((await fetch(`${other.url}/api/health`)).status, 200, 'liveness does not depend on the database');
    } finally {
      await other.close().catch(() => undefined);
    }
  });
});

describe('SIGTERM', { skip: usingPostgres && 'the drain does not depend on the database: checked once, on SQLite' }, () => {
  test('a request running when SIGTERM arrives finishes; new connections are refused; the process exits 0', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-drain-'));
    try {
      const node = await startCli({ DATA_DIR: dataDir, PORT: '0', KNOWLEDGE_DIR: path.join(dataDir, 'k'), ADMIN_PASSWORD: 'admin-pass-1', SHUTDOWN_GRACE_SECONDS: '30' });
      const exited = new Promise<number | null>((resolve) => node.child.once('exit', (code) => resolve(code)));
      const body = JSON.stringify({ username: 'admin', password: 'admin-pass-1' });
      // A login whose body arrives in two parts, SIGTERM in between.
      const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = http.request(`${node.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode!, text }));
        });
        req.on('error', reject);
        req.write(body.slice(0, 10));
        setTimeout(async () => {
          node.child.kill('SIGTERM');
          await until(() => /SIGTERM: stopping/.test(node.output), 'the drain to begin');
          await assert.rejects(fetch(`${node.url}/api/health`), 'a new connection is refused while draining');
          req.end(body.slice(10));
        }, 200);
      });
      const { status, text } = await answer;
      assert.equal(status, 200, text);
      assert.ok(JSON.parse(text).data.token);
      assert.equal(await exited, 0);
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});
