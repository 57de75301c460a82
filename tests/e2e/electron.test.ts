// The desktop app itself, where an Electron binary can run: launch it on a throwaway data folder, sign in in its
// window, quit, and find the server stopped cleanly. Skipped, saying why, where there is no Electron binary or
// no display (as on CI and on the machines this project is developed on; main/ is tested under plain Node there,
// see tests/unit/main-wiring.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { _electron } from 'playwright-core';
import { findElectron } from '../../main/launcher/electron-binary.js';
import { buildWhatIsMissing, RENDERER, SERVER_AND_MAIN } from '../../main/launcher/build-steps.js';
import { LoginPage } from './page-models/login-page.js';

const root = path.resolve(import.meta.dirname, '../..');
const electron = findElectron(root);

test('desktop app: launch, sign in, quit', { skip: 'missing' in electron && `no Electron desktop here: ${electron.missing}` }, async () => {
  assert.ok('binary' in electron);
  assert.ok(buildWhatIsMissing(root, [SERVER_AND_MAIN, RENDERER], () => {}), 'the app builds');
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-electron-'));
  try {
    const app = await _electron.launch({
      executablePath: electron.binary,
      args: [root],
      env: { ...process.env, DATA_DIR: dataDir, ADMIN_PASSWORD: 'electron-pass-1', TRAINBENCH_DISABLE_UPDATES: '1' } as Record<string, string>,
    });
    const window = await app.firstWindow();
    assert.match(window.url(), /^http:\/\/127\.0\.0\.1:\d+\//, 'the window shows the embedded server');
    await new LoginPage(window).logIn('admin', 'electron-pass-1');
    assert.equal(await window.evaluate(() => typeof (window as unknown as { trainbench?: unknown }).trainbench), 'object', 'the desktop bridge is there');
    await app.close();

    assert.equal(await fs.access(path.join(dataDir, 'server.running')).then(() => true, () => false), false, 'the server stopped cleanly on quit');
    assert.match(await fs.readFile(path.join(dataDir, 'logs', 'server.log'), 'utf8'), /server stopped cleanly; write-ahead log checkpointed/);
    assert.match(await fs.readFile(path.join(dataDir, 'logs', 'main.log'), 'utf8'), /quit/);
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});
