// `npm start` as people run it, where no Electron binary is installed (forced with ELECTRON_OVERRIDE_DIST_PATH,
// which the electron package honours, so the test means the same on a machine that has one): it builds what is
// missing, says in one line that there is no window, serves the same app for a browser from the desktop app's
// data folder, and stops cleanly on Ctrl-C.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { appDataDir, electronUserDataDir } from '../../main/launcher/user-data.js';
import { buildReason, RENDERER } from '../../main/launcher/build-steps.js';
import { findElectron } from '../../main/launcher/electron-binary.js';

const root = path.resolve(import.meta.dirname, '../..');

/** Polls `found` until it yields a value; fails with the output once the process is gone. */
async function waitFor<T>(found: () => T | undefined, gone: () => boolean, output: () => string): Promise<T> {
  for (;;) {
    const value = found();
    if (value !== undefined) return value;
    if (gone()) throw new Error(`npm start exited:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test('npm start without an Electron binary: one line, then the app for a browser on the desktop data folder', async () => {
  const home = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-launch-'));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, 'config'),
    ELECTRON_OVERRIDE_DIST_PATH: path.join(home, 'no-electron-here'),
    ADMIN_PASSWORD: 'launch-pass-1',
    NODE_ENV: 'test',
  };
  // Detached: Ctrl-C reaches the whole process group (npm, tsx, the launcher, the server), as in a terminal.
  const npm = spawn('npm', ['start', '--silent'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  npm.stdout.on('data', (chunk: Buffer) => (output += chunk));
  npm.stderr.on('data', (chunk: Buffer) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));
  try {
    const url = (await waitFor(() => /open (http:\/\/127\.0\.0\.1:\d+\/) in your browser/.exec(output)?.[1], () => npm.exitCode !== null, () => output))!;

    const mentions = output.split('\n').filter((line) => /electron/i.test(line));
    assert.deepEqual(mentions, [`[trainbench] No desktop window: there is no Electron binary at ${path.join(home, 'no-electron-here', 'electron')}. Starting Trainbench for your browser instead.`]);
    assert.doesNotMatch(output, /^\s+at /m, 'no stack trace');

    const page = await fetch(url, { headers: { accept: 'text/html' } });
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    assert.match(await page.text(), /<div id="root">/, 'the UI is served at /');
    const health = await fetch(new URL('/api/health', url));
    assert.deepEqual(await health.json(), { status: 'ok', service: 'trainbench', version: '1.3.0' });
    const login = await fetch(new URL('/api/auth/login', url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'launch-pass-1' }) });
    assert.equal(login.status, 200);

    const dataDir = path.join(home, 'config', 'Trainbench');
    assert.equal(electronUserDataDir(root, 'linux', env, home), dataDir, 'where Electron puts the desktop app\'s data');
    assert.ok((await fs.readdir(dataDir)).includes('trainbench.sqlite'), 'the data lives in the desktop data folder');

    process.kill(-npm.pid!, 'SIGINT');
    await exited;
    // npm may leave before the launcher has finished stopping the server: wait for the clean-stop mark.
    const running = () => fs.access(path.join(dataDir, 'server.running')).then(() => true, () => false);
    for (let i = 0; i < 200 && (await running()); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(await running(), false, 'stopped cleanly');
    assert.match(await fs.readFile(path.join(dataDir, 'logs', 'server.log'), 'utf8'), /server stopped cleanly; write-ahead log checkpointed/);
    assert.match(await fs.readFile(path.join(dataDir, 'logs', 'main.log'), 'utf8'), /Trainbench starting without Electron \(browser mode\)/);
    await assert.rejects(fetch(url), 'nothing listens after Ctrl-C');
  } finally {
    if (npm.exitCode === null && npm.signalCode === null) process.kill(-npm.pid!, 'SIGKILL');
    await fs.rm(home, { recursive: true, force: true });
  }
});

test('the data folder is the one Electron names after productName on each platform', () => {
  assert.equal(appDataDir('linux', {}, '/home/li'), '/home/li/.config');
  assert.equal(appDataDir('linux', { XDG_CONFIG_HOME: '/xdg' }, '/home/li'), '/xdg');
  assert.equal(appDataDir('darwin', {}, '/Users/li'), '/Users/li/Library/Application Support');
  assert.equal(appDataDir('win32', { APPDATA: 'C:\\Users\\li\\AppData\\Roaming' }, 'C:\\Users\\li'), 'C:\\Users\\li\\AppData\\Roaming');
  assert.equal(path.basename(electronUserDataDir(root, 'linux', {}, '/home/li')), 'Trainbench');
});

test('no window without a binary or a display; builds are skipped when their outputs are newer than every input', async () => {
  const fake = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-electron-'));
  try {
    await fs.writeFile(path.join(fake, 'electron'), '');
    const env = { ELECTRON_OVERRIDE_DIST_PATH: fake };
    // ELECTRON_OVERRIDE_DIST_PATH is read when the electron package loads, once per process: checked in a child.
    const lookup = (extra: Record<string, string>, platform: string) =>
      new Promise<string>((resolve) => {
        const script = `import { findElectron } from './main/launcher/electron-binary.ts'; console.log(JSON.stringify(findElectron(process.cwd(), process.env, '${platform}')));`;
        const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, env: { PATH: process.env.PATH, ...env, ...extra } });
        let out = '';
        child.stdout.on('data', (c: Buffer) => (out += c));
        child.on('exit', () => resolve(out.trim()));
      });
    assert.deepEqual(JSON.parse(await lookup({ ELECTRON_OVERRIDE_DIST_PATH: '/nowhere', DISPLAY: ':0' }, 'linux')), { missing: 'there is no Electron binary at /nowhere/electron' });
    assert.deepEqual(JSON.parse(await lookup({}, 'linux')), { missing: 'there is no display to open a window on' });
    assert.deepEqual(JSON.parse(await lookup({ DISPLAY: ':0' }, 'linux')), { binary: path.join(fake, 'electron') });
    assert.deepEqual(JSON.parse(await lookup({}, 'win32')), { binary: path.join(fake, 'electron') });
  } finally {
    await fs.rm(fake, { recursive: true, force: true });
  }

  const app = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-build-'));
  try {
    const step = { ...RENDERER, inputs: ['src'], ignore: ['src/skip'], outputs: ['dist/index.html'] };
    await fs.mkdir(path.join(app, 'src', 'skip'), { recursive: true });
    await fs.writeFile(path.join(app, 'src', 'a.ts'), '');
    assert.equal(buildReason(app, step), 'dist/index.html is missing');
    await fs.mkdir(path.join(app, 'dist'));
    await fs.writeFile(path.join(app, 'dist', 'index.html'), '');
    const past = new Date(Date.now() - 60_000);
    await fs.utimes(path.join(app, 'src', 'a.ts'), past, past);
    await fs.utimes(path.join(app, 'src'), past, past);
    await fs.utimes(path.join(app, 'src', 'skip'), past, past);
    assert.equal(buildReason(app, step), '', 'up to date');
    await fs.writeFile(path.join(app, 'src', 'skip', 'ignored.ts'), '');
    assert.equal(buildReason(app, step), '', 'ignored folders do not count');
    await fs.writeFile(path.join(app, 'src', 'a.ts'), 'changed');
    assert.equal(buildReason(app, step), 'sources changed since the last build');
  } finally {
    await fs.rm(app, { recursive: true, force: true });
  }
});
