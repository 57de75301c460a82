// Central nodes started at once on one empty PostgreSQL schema all come up (migrations, the first admin and the
// install's secrets run under one advisory lock) and share one set of secrets: a token from one node works on every
// other, and no node keeps a secret in its own DATA_DIR.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import knexFactory from 'knex';
import { ADMIN_PASSWORD, usingPostgres } from '../support/server.js';
import { startCli, stopCli, type StartedCli } from '../support/cli.js';

const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

describe('nodes starting together on one database', { skip: !usingPostgres && 'a cluster runs on PostgreSQL; checked in the PostgreSQL pass' }, () => {
  const schema = `tb_${crypto.randomBytes(6).toString('hex')}`;
  const dirs: string[] = [];
  const nodes: StartedCli[] = [];
  after(async () => {
    await Promise.all(nodes.map((node) => stopCli(node.child)));
    const admin = knexFactory({ client: 'pg', connection: POSTGRES_URL });
    for (const each of [schema, `${schema}_jobs`]) await admin.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [each]);
    await admin.destroy();
    for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
  });

  test('three nodes started at the same moment on an empty schema all come up with one admin and one JWT secret', async () => {
    const envs = await Promise.all(
      [0, 1, 2].map(async () => {
        const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-node-'));
        dirs.push(dataDir);
        return { DATA_DIR: dataDir, PORT: '0', KNOWLEDGE_DIR: path.join(dataDir, 'k'), DATABASE_URL: POSTGRES_URL, DATABASE_SCHEMA: schema, ADMIN_PASSWORD };
      }),
    );
    const started = await Promise.allSettled(envs.map((env) => startCli(env)));
    for (const result of started) if (result.status === 'fulfilled') nodes.push(result.value);
    assert.deepEqual(started.map((r) => r.status), ['fulfilled', 'fulfilled', 'fulfilled'], started.map((r) => (r.status === 'rejected' ? String(r.reason) : '')).join('\n'));

    const login = await fetch(`${nodes[0]!.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }) });
    assert.equal(login.status, 200);
    const token = ((await login.json()) as { data: { token: string } }).data.token;
    for (const node of nodes) {
      const me = await fetch(`${node.url}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(me.status, 200, `a token from the first node works on ${node.url}`);
      const users = (await (await fetch(`${node.url}/api/system/users?size=20`, { headers: { authorization: `Bearer ${token}` } })).json()) as { data: { role: string }[] };
      assert.equal(users.data.filter((u) => u.role === 'admin').length, 1, 'one first admin');
    }
    for (const dir of dirs) {
      const files = await fs.readdir(dir);
      assert.ok(!files.includes('secrets.json') && !files.includes('pack-signing-key.pem'), `no secret kept in ${dir}: ${files.join(', ')}`);
    }
    const keys = await Promise.all(nodes.map(async (node) => ((await (await fetch(`${node.url}/api/knowledge-packs/key`, { headers: { authorization: `Bearer ${token}` } })).json()) as { data: { fingerprint: string } }).data.fingerprint));
    assert.equal(new Set(keys).size, 1, 'one pack signing key for the install');
  });
});
