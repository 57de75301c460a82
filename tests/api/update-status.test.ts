// GET /api/system/update-status and the update_base_url parameter: what an admin sees of the desktop app's
// self-update, and where it looks for updates.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { startTestServer, type TestServer } from '../support/server.js';
import type { UpdateStatus } from '../../contract/system.js';

const packageVersion = JSON.parse(await fs.readFile(path.resolve(import.meta.dirname, '../../package.json'), 'utf8')).version as string;

describe('desktop update status', () => {
  let s: TestServer;
  let employee: { token: string };
  before(async () => {
    s = await startTestServer();
    employee = await s.user();
  });
  after(() => s.close());
  const admin = () => ({ token: s.adminToken });

  test('admins only', async () => {
    assert.equal((await s.api.get('/api/system/update-status')).status, 401);
    const res = await s.api.get('/api/system/update-status', { token: employee.token });
    assert.equal(res.status, 403);
    assert.equal(res.body.error, 'forbidden');
  });

  test('a server nobody reports to is headless: updates do not apply, and it says why', async () => {
    const res = await s.api.get('/api/system/update-status', admin());
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data, {
      applies: false,
      reason: 'This server runs without the desktop app (npm run server): it is updated by deploying a new version, not by the desktop updater.',
      state: 'not-applicable',
      installed_version: packageVersion,
      available_version: null,
      downloaded_version: null,
      progress: null,
      feed_url: null,
      last_checked_at: null,
      next_check_at: null,
      error: null,
    });
  });

  test('what the desktop app reports is what an admin reads: installed, available and downloaded versions', async () => {
    const status: UpdateStatus = {
      applies: true, reason: null, state: 'downloaded', installed_version: '1.3.0', available_version: '1.4.0', downloaded_version: '1.4.0', progress: null,
      feed_url: 'https://updates.example.cn/trainbench/', last_checked_at: '2025-03-01T08:00:00.000Z', next_check_at: '2025-03-01T14:00:00.000Z', error: null,
    };
    s.server.updates.report(status);
    assert.deepEqual((await s.api.get('/api/system/update-status', admin())).body.data, status);
  });

  test('update_base_url: an http(s) URL or empty, validated like every parameter (400 and nothing written)', async () => {
    const put = (value: unknown) => s.api.put('/api/system/config', { ...admin(), body: { configs: { update_base_url: value } } });
    assert.equal((await s.api.get('/api/system/config', admin())).body.data.update_base_url, '', 'unset by default');
    for (const bad of ['ftp://updates.example.cn/', 'updates.example.cn/trainbench', 'javascript:alert(1)', 'https://user:secret@updates.example.cn/', 'https://exa mple.cn/', 42, null]) {
      const res = await put(bad);
      assert.equal(res.status, 400, JSON.stringify(bad));
      assert.equal(res.body.error, 'validation_failed');
      assert.match(res.body.message, /update_base_url/);
    }
    assert.equal((await s.api.get('/api/system/config', admin())).body.data.update_base_url, '');
    const set = await put('  http://10.0.0.5/trainbench/  ');
    assert.equal(set.status, 200);
    assert.equal(set.body.data.update_base_url, 'http://10.0.0.5/trainbench/', 'trimmed; http is allowed on a company network');
    assert.equal((await put('')).body.data.update_base_url, '', 'empty turns updates off');
  });
});
