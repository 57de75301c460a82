import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { desktopServerConfig } from '../../main/server-config.js';
import { describeStartupError } from '../../main/startup-errors.js';
import { mainTranslator, pickLanguage } from '../../main/i18n.js';
import { appMenuTemplate } from '../../main/menu.js';
import { mainWindowOptions, secureWebPreferences } from '../../main/window-options.js';
import { startServer } from '../../server/start.js';

async function tempDir(): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-main-'));
}

test('the embedded server listens on loopback only, on a free port, in the user-data folder', async () => {
  const userData = await tempDir();
  try {
    const config = desktopServerConfig({ HOST: '0.0.0.0', JWT_SECRET: 'x'.repeat(32) }, userData);
    assert.equal(config.host, '127.0.0.1', 'HOST never opens the desktop server to the network');
    assert.equal(config.port, 0);
    assert.equal(config.dataDir, userData);
  } finally {
    await fs.rm(userData, { recursive: true, force: true });
  }
});

test('PORT and DATA_DIR still apply, and an invalid PORT is refused', async () => {
  const userData = await tempDir();
  const dataDir = await tempDir();
  try {
    const config = desktopServerConfig({ PORT: '3210', DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(32) }, userData);
    assert.equal(config.port, 3210);
    assert.equal(config.dataDir, dataDir);
    assert.throws(() => desktopServerConfig({ PORT: 'http', JWT_SECRET: 'x' }, userData), /PORT/);
  } finally {
    await fs.rm(userData, { recursive: true, force: true });
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});

test('starts in-process from that configuration and stops cleanly', async () => {
  const userData = await tempDir();
  try {
    const config = desktopServerConfig({ ADMIN_PASSWORD: 'desktop-pass-1' }, userData);
    const server = await startServer(config);
    try {
      assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.notEqual(server.port, 0);
      const health = await fetch(`${server.url}/api/health`);
      assert.equal(health.status, 200);
      assert.equal(((await health.json()) as { status: string }).status, 'ok');
      const secrets = await fs.stat(path.join(userData, 'secrets.json'));
      assert.equal(secrets.mode & 0o077, 0, 'the per-install secret is readable by the owner only');
    } finally {
      await server.close();
    }
    await assert.rejects(fetch(`${server.url}/api/health`), 'nothing listens after close');
  } finally {
    await fs.rm(userData, { recursive: true, force: true });
  }
});

test('windows are isolated, sandboxed, without Node and without <webview>', () => {
  const prefs = mainWindowOptions('/app/dist/main/preload.cjs').webPreferences!;
  assert.equal(prefs.contextIsolation, true);
  assert.equal(prefs.sandbox, true);
  assert.equal(prefs.nodeIntegration, false);
  assert.equal(prefs.nodeIntegrationInSubFrames, false);
  assert.equal(prefs.webSecurity, true);
  assert.equal(prefs.allowRunningInsecureContent, false);
  assert.equal(prefs.webviewTag, false);
  assert.equal(prefs.preload, '/app/dist/main/preload.cjs');
  assert.equal('preload' in secureWebPreferences(), false);
});

const english = mainTranslator('en');
const describe = (err: unknown, dataDir: string) => describeStartupError(english, err, dataDir);

test('startup failures are explained in words a user can act on', () => {
  const inUse = describe(Object.assign(new Error('listen EADDRINUSE: address already in use 127.0.0.1:3210'), { code: 'EADDRINUSE' }), '/data');
  assert.match(inUse.detail, /already taken/);
  assert.match(inUse.detail, /PORT/);
  assert.match(describe(Object.assign(new Error('SQLITE_CANTOPEN: unable to open database file'), { code: 'SQLITE_CANTOPEN' }), '/data').detail, /cannot write to its data folder \/data/);
  assert.match(describe(Object.assign(new Error("EEXIST: file already exists, mkdir '/data'"), { code: 'EEXIST' }), '/data').detail, /is a file, not a folder/);
  assert.match(describe(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }), '/data').detail, /in use by another program/);
  assert.match(describe(Object.assign(new Error('file is not a database'), { code: 'SQLITE_NOTADB' }), '/data').detail, /damaged/);
  assert.equal(describe(new Error('boom'), '/data').detail, 'boom');
  assert.equal(describe('plain string', '/data').detail, 'plain string');
  assert.equal(describe(undefined, '/data').title, 'Trainbench could not start');
});

test('menus and dialogs speak Chinese unless the system prefers English', () => {
  assert.equal(pickLanguage(['zh-Hans-CN', 'en-US']), 'zh-CN');
  assert.equal(pickLanguage(['en-GB', 'zh-CN']), 'en');
  assert.equal(pickLanguage(['fr-FR', 'en-US']), 'en');
  assert.equal(pickLanguage(['fr-FR']), 'zh-CN');
  assert.equal(pickLanguage([]), 'zh-CN');
  const chinese = describeStartupError(mainTranslator('zh-CN'), Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }), '/data');
  assert.deepEqual(chinese, { title: 'Trainbench 无法启动', detail: '/data 中的数据库正被其他程序使用。请关闭其他正在运行的 Trainbench 后重试。' });
  const menu = appMenuTemplate(mainTranslator('zh-CN'), 'linux', { openLogFolder: () => undefined, showAbout: () => undefined }, { devTools: false });
  assert.deepEqual(menu.map((item) => item.label), ['文件', '编辑', '视图', '帮助']);
});
