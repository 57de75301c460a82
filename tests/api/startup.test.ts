import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { usingPostgres } from '../support/server.js';
import { ApiClient } from '../support/client.js';
import { CHUNK, sendChunk, uploadOk } from './media-fixtures.js';
import { startCli, stopCli as stop } from '../support/cli.js';

describe('server start-up (npm run server)', { skip: usingPostgres && 'start-up is checked once, on SQLite' }, () => {
  const dirs: string[] = [];
  after(async () => {
    for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
  });

  test('listens on 127.0.0.1 by default, creates the admin with a generated password printed once, and keeps its JWT secret across restarts', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-cli-'));
    dirs.push(dataDir);
    const env = { DATA_DIR: dataDir, PORT: '0', KNOWLEDGE_DIR: path.join(dataDir, 'k') };
    const first = await startCli(env);
    let token = '';
    try {
      assert.match(first.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      const printed = /created admin "admin" with generated password: (\S+)/.exec(first.output);
      assert.ok(printed, first.output);
      const login = await fetch(`${first.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: printed[1] }) });
      assert.equal(login.status, 200);
      token = ((await login.json()) as { data: { token: string } }).data.token;
      const secrets = await fs.stat(path.join(dataDir, 'secrets.json'));
      assert.equal(secrets.mode & 0o077, 0, 'secrets file is readable by the owner only');
      await fs.access(path.join(dataDir, 'trainbench.sqlite'));
    } finally {
      await stop(first.child);
    }
    const second = await startCli(env);
    try {
      assert.doesNotMatch(second.output, /generated password/);
      const me = await fetch(`${second.url}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(me.status, 200, 'a token from before the restart is still valid');
    } finally {
      await stop(second.child);
    }
  });

  /** Every file and folder below dir (itself included) with its permission bits, as `path mode`. */
  async function modesUnder(dir: string): Promise<string[]> {
    const entries = [`. 0${((await fs.stat(dir)).mode & 0o777).toString(8)}`];
    for (const name of await fs.readdir(dir, { recursive: true })) {
      entries.push(`${name} 0${((await fs.lstat(path.join(dir, name))).mode & 0o777).toString(8)}`);
    }
    return entries;
  }
  const readableByOthers = async (dir: string) => (await modesUnder(dir)).filter((entry) => !/ 0[0-7]00$/.test(entry));

  test('DATA_DIR is private: created 0700 with owner-only database, secrets and media; a looser existing one is tightened and the log says so', { skip: process.platform === 'win32' }, async () => {
    const parent = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-cli-'));
    dirs.push(parent);
    // The usual umask, under which files are readable by others unless the server says otherwise (the child inherits it).
    const previousUmask = process.umask(0o022);
    after(() => void process.umask(previousUmask));
    const dataDir = path.join(parent, 'fresh', 'data');
    const env = { DATA_DIR: dataDir, PORT: '0', KNOWLEDGE_DIR: path.join(parent, 'k'), ADMIN_PASSWORD: 'admin-pass-1' };
    let server = await startCli(env);
    try {
      const api = new ApiClient(server.url);
      const token = await api.login('admin', 'admin-pass-1');
      await uploadOk(api, token, 'notes.txt', Buffer.from('private notes'));
      const init = await api.post('/api/media/upload/init', { token, body: { filename: 'talk.mp4', file_size: CHUNK + 3 } });
      const uploadId = init.body.data.upload_id as string;
      assert.equal((await sendChunk(api, token, uploadId, 0, crypto.randomBytes(CHUNK))).status, 200);
      const pending = await api.post('/api/media/upload/init', { token, body: { filename: 'half.mp4', file_size: CHUNK + 3 } });
      assert.equal((await sendChunk(api, token, pending.body.data.upload_id, 0, crypto.randomBytes(CHUNK))).status, 200);
      assert.equal((await sendChunk(api, token, uploadId, 1, crypto.randomBytes(3))).status, 200);
      assert.equal((await api.post('/api/media/upload/complete', { token, body: { upload_id: uploadId } })).status, 201);

      const modes = await modesUnder(dataDir);
      for (const expected of ['. 0700', 'trainbench.sqlite 0600', 'trainbench.sqlite-wal 0600', 'secrets.json 0600', 'media 0700']) assert.ok(modes.includes(expected), `${expected} in ${modes.join(', ')}`);
      assert.ok(modes.filter((m) => m.startsWith('media/files/')).length >= 2, modes.join(', '));
      assert.ok(modes.some((m) => m.startsWith('media/chunks/')), 'an upload in progress is checked too');
      assert.deepEqual(await readableByOthers(dataDir), []);
      assert.doesNotMatch(server.output, /tightened/);
    } finally {
      await stop(server.child);
    }

    // An install from before: everything readable by others.
    const loose = [dataDir, path.join(dataDir, 'trainbench.sqlite'), path.join(dataDir, 'media'), path.join(dataDir, 'media', 'files')];
    for (const target of loose) await fs.chmod(target, (await fs.stat(target)).isDirectory() ? 0o755 : 0o644);
    for (const name of await fs.readdir(path.join(dataDir, 'media', 'files'))) await fs.chmod(path.join(dataDir, 'media', 'files', name), 0o644);
    server = await startCli(env);
    try {
      assert.ok(server.output.includes(`DATA_DIR ${dataDir} was readable by other accounts (mode 0755): tightened to 0700`), server.output);
      assert.deepEqual(await readableByOthers(dataDir), []);
    } finally {
      await stop(server.child);
    }
  });

  test('ADMIN_USERNAME / ADMIN_PASSWORD and HOST are honoured; a bad PORT fails clearly', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-cli-'));
    dirs.push(dataDir);
    const started = await startCli({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', ADMIN_USERNAME: 'boss', ADMIN_PASSWORD: 'boss-pass-1' });
    try {
      assert.doesNotMatch(started.output, /generated password/);
      const login = await fetch(`${started.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'boss', password: 'boss-pass-1' }) });
      assert.equal(login.status, 200);
      const health = await fetch(`${started.url}/api/health`);
      assert.deepEqual(await health.json(), { status: 'ok', service: 'trainbench', version: '1.3.0' });
    } finally {
      await stop(started.child);
    }
    await assert.rejects(startCli({ DATA_DIR: dataDir, PORT: 'not-a-port' }), /invalid configuration: PORT must be a whole number/);
  });

  test('received chunks survive a clean stop; chunks never flushed before a crash are asked for again', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-cli-'));
    dirs.push(dataDir);
    const env = { DATA_DIR: dataDir, PORT: '0', KNOWLEDGE_DIR: path.join(dataDir, 'k'), ADMIN_PASSWORD: 'admin-pass-1' };
    const data = crypto.randomBytes(2 * CHUNK + 10);
    const chunkOf = (index: number) => data.subarray(index * CHUNK, (index + 1) * CHUNK);
    /** The API of a (re)started server, logged in as the admin. */
    const connect = async (url: string) => {
      const api = new ApiClient(url);
      return { api, token: await api.login('admin', 'admin-pass-1') };
    };

    let server = await startCli(env);
    let { api, token } = await connect(server.url);
    const init = await api.post('/api/media/upload/init', { token, body: { filename: 'lecture.mp4', file_size: data.length } });
    const uploadId = init.body.data.upload_id as string;
    for (const index of [0, 1]) assert.equal((await sendChunk(api, token, uploadId, index, chunkOf(index))).status, 200);
    await stop(server.child);

    server = await startCli(env);
    ({ api, token } = await connect(server.url));
    assert.deepEqual((await api.get(`/api/media/upload/${uploadId}`, { token })).body.data.received, [0, 1], 'a clean stop put them on disk');
    assert.equal((await sendChunk(api, token, uploadId, 2, chunkOf(2))).status, 200);
    await stop(server.child, 'SIGKILL');

    server = await startCli(env);
    try {
      ({ api, token } = await connect(server.url));
      const state = (await api.get(`/api/media/upload/${uploadId}`, { token })).body.data;
      assert.deepEqual([state.received, state.missing], [[0, 1], [2]], 'the chunk received after the last flush is asked for again');
      assert.equal((await sendChunk(api, token, uploadId, 2, chunkOf(2))).status, 200);
      const done = await api.post('/api/media/upload/complete', { token, body: { upload_id: uploadId } });
      assert.equal(done.status, 201, done.text);
      assert.equal(done.body.data.size, data.length);
      assert.equal((await api.post(`/api/media/audit/${done.body.data.id}`, { token, body: { action: 'approve' } })).status, 200);
      const preview = await api.get(`/api/media/preview/${done.body.data.id}`, { token });
      const file = Buffer.from(await (await fetch(`${server.url}${preview.body.data.preview_url as string}`)).arrayBuffer());
      assert.ok(file.equals(data), 'the merged file is the uploaded one, byte for byte');
    } finally {
      await stop(server.child);
    }
  });
});
