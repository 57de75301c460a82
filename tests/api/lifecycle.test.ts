// Quit and restart lose nothing: a clean stop checkpoints and closes the database; a server killed in the middle
// of a stream of writes comes back with every write it had acknowledged and says it recovered.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { usingPostgres } from '../support/server.js';
import { ApiClient } from '../support/client.js';
import { startCli, stopCli } from '../support/cli.js';

const ADMIN_PASSWORD = 'lifecycle-pass-1';

const sizeOf = (file: string) => fs.stat(file).then((s) => s.size, () => 0);
const exists = (file: string) => fs.access(file).then(() => true, () => false);

describe('quit and restart (npm run server)', { skip: usingPostgres && 'the write-ahead log is SQLite\'s; checked once, on SQLite' }, () => {
  const dirs: string[] = [];
  after(async () => {
    for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
  });
  const dataDir = async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-lifecycle-'));
    dirs.push(dir);
    return dir;
  };

  test('a clean stop checkpoints the write-ahead log, closes the database and is not taken for a crash', async () => {
    const dir = await dataDir();
    const env = { DATA_DIR: dir, PORT: '0', ADMIN_PASSWORD };
    const first = await startCli(env);
    const api = new ApiClient(first.url);
    const token = await api.login('admin', ADMIN_PASSWORD);
    for (let i = 0; i < 20; i++) assert.equal((await api.post('/api/system/departments', { token, body: { name: `Clean ${i}` } })).status, 201);
    assert.ok(await exists(path.join(dir, 'server.running')), 'a running server marks its data folder');
    await stopCli(first.child);

    assert.equal(await sizeOf(path.join(dir, 'trainbench.sqlite-wal')), 0, 'nothing is left in the write-ahead log');
    assert.equal(await exists(path.join(dir, 'server.running')), false);
    const log = await fs.readFile(path.join(dir, 'logs', 'server.log'), 'utf8');
    assert.match(log, /"level":"info",.*"msg":"server \S+ \(API 1\.3\.0\) ready on http:\/\/127\.0\.0\.1:\d+ in \d+ ms from process start; SQLite 3\.\d+\.\d+, schema \d{3}_\w+/);
    assert.match(log, /"level":"info",.*"msg":"server stopped cleanly; write-ahead log checkpointed"/);
    assert.doesNotMatch(log, /generated password/, 'no password in the log');

    const second = await startCli(env);
    try {
      assert.doesNotMatch(second.output, /unclean stop/);
      const names = (await new ApiClient(second.url).get('/api/system/departments', { token })).body.data.map((d: { name: string }) => d.name);
      assert.equal(names.filter((n: string) => n.startsWith('Clean ')).length, 20);
    } finally {
      await stopCli(second.child);
    }
  });

  test('SIGKILL during a stream of committed writes: the next start has every acknowledged write and logs the recovery', async () => {
    const dir = await dataDir();
    const env = { DATA_DIR: dir, PORT: '0', ADMIN_PASSWORD };
    const first = await startCli(env);
    const api = new ApiClient(first.url);
    const token = await api.login('admin', ADMIN_PASSWORD);

    // Four writers in a loop; each name counts as committed only once the server answered 201.
    const acknowledged: string[] = [];
    let killed = false;
    let next = 0;
    const writer = async () => {
      while (!killed) {
        const name = `Write ${next++}`;
        const res = await api.post('/api/system/departments', { token, body: { name } }).catch(() => null);
        if (res?.status === 201) acknowledged.push(name);
      }
    };
    const writers = Array.from({ length: 4 }, writer);
    while (acknowledged.length < 300) await new Promise((resolve) => setTimeout(resolve, 5));
    await stopCli(first.child, 'SIGKILL');
    killed = true;
    await Promise.all(writers);
    assert.ok(await exists(path.join(dir, 'server.running')), 'the killed server could not mark a clean stop');

    const second = await startCli(env);
    try {
      assert.match(second.output, /recovered from an unclean stop: the previous server \(pid \d+, started \S+\) did not shut down cleanly; SQLite replayed its write-ahead log/);
      const log = await fs.readFile(path.join(dir, 'logs', 'server.log'), 'utf8');
      assert.match(log, /"level":"error",.*"msg":"recovered from an unclean stop/);
      const stored = new Set<string>((await new ApiClient(second.url).get('/api/system/departments', { token })).body.data.map((d: { name: string }) => d.name));
      const lost = acknowledged.filter((name) => !stored.has(name));
      assert.deepEqual(lost, [], `${acknowledged.length} writes were acknowledged before the kill`);
      const integrity = await new ApiClient(second.url).get('/api/health');
      assert.equal(integrity.status, 200);
    } finally {
      await stopCli(second.child);
    }
    const third = await startCli(env);
    try {
      assert.doesNotMatch(third.output, /unclean stop/, 'recovery is reported once');
    } finally {
      await stopCli(third.child);
    }
  });
});
