// The real main process (main/index.ts) under plain Node, with Electron replaced by the stand-in in
// ./main-fake-electron (the Electron runtime cannot run on every machine that runs the tests).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_HEAP_FLAGS } from '../../server/heap-flags.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const register = path.join(root, 'tests/unit/main-fake-electron/register.mjs');

interface FakeEvent {
  event: string;
  [key: string]: unknown;
}

/** Runs main/index.ts to its exit; resolves its exit code and the stand-in's events in order. */
function runMain(env: Record<string, string>): Promise<{ code: number | null; events: FakeEvent[]; output: string }> {
  return new Promise((resolve, reject) => {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !['PORT', 'HOST', 'DATA_DIR', 'DATABASE_URL', 'ADMIN_PASSWORD', 'JWT_SECRET'].includes(k)));
    const child = spawn(process.execPath, ['--import', 'tsx', '--import', register, path.join(root, 'main/index.ts')], {
      cwd: root,
      env: { ...clean, NODE_ENV: 'test', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const events = output
        .split('\n')
        .filter((line) => line.startsWith('FAKE '))
        .map((line) => JSON.parse(line.slice(5)) as FakeEvent);
      resolve({ code, events, output });
    });
  });
}

const names = (events: FakeEvent[]) => events.map((e) => e.event);

test('starts the server, locks the window down, loads the app from the server and stops it on quit', async () => {
  const userData = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-wiring-'));
  try {
    const { code, events, output } = await runMain({ FAKE_USER_DATA: userData });
    assert.equal(code, 0, output);
    const order = names(events);

    assert.ok(order.indexOf('permissions') < order.indexOf('window'), 'security is in place before the first window');
    assert.deepEqual(events.filter((e) => e.event === 'ipc').map((e) => e.channel), ['app:get-version', 'app:open-external', 'update:get-status', 'update:install']);
    const forks = events.filter((e) => e.event === 'utility-fork');
    assert.equal(forks.length, 1, 'the server runs in one utility process');
    assert.match(String(forks[0]!.modulePath), /main[/\\]server-host\.ts$/);
    assert.equal(forks[0]!.serviceName, 'Trainbench server');
    assert.deepEqual(forks[0]!.execArgv, [...SERVER_HEAP_FLAGS], 'the server process runs with the heap settings of npm run server');
    assert.deepEqual(events.find((e) => e.event === 'menu'), { event: 'menu', labels: ['File', 'Edit', 'View', 'Help'] });

    const box = events.find((e) => e.event === 'message-box');
    assert.ok(box, 'a first start shows the generated admin password');
    assert.match(String(box.detail), /Username: admin\nPassword: \S{8,}/);

    const window = events.find((e) => e.event === 'window')!;
    assert.deepEqual(
      { ...(window.webPreferences as object), preload: undefined },
      { contextIsolation: true, sandbox: true, nodeIntegration: false, nodeIntegrationInWorker: false, nodeIntegrationInSubFrames: false, webSecurity: true, allowRunningInsecureContent: false, webviewTag: false, navigateOnDragDrop: false, spellcheck: false, preload: undefined },
    );
    assert.match(String((window.webPreferences as { preload: string }).preload), /main[/\\]preload\.cjs$/);

    const load = events.find((e) => e.event === 'load')!;
    assert.match(String(load.url), /^http:\/\/127\.0\.0\.1:\d+\/$/, 'the window shows the embedded server on loopback');
    assert.ok(output.includes(`server listening on ${String(load.url).slice(0, -1)}`));

    assert.deepEqual(events.find((e) => e.event === 'navigation'), { event: 'navigation', externalPrevented: true, internalPrevented: false, webviewPrevented: true, openJavascript: 'deny' });
    assert.deepEqual(events.find((e) => e.event === 'open-external'), { event: 'open-external', url: 'https://example.com/elsewhere' });
    assert.ok(!order.includes('updater-created'), 'no update check from source');
    const update = events.find((e) => e.event === 'send' && e.channel === 'update:status');
    assert.deepEqual(
      { ...(update?.payload as object) },
      { applies: false, reason: 'The app runs from source (npm start): only an installed build updates itself.', state: 'not-applicable', installed_version: '1.3.0-test', available_version: null, downloaded_version: null, progress: null, feed_url: null, last_checked_at: null, next_check_at: null, error: null },
      'the window is told updates do not apply',
    );
    assert.deepEqual(events.filter((e) => e.event === 'progress'), [{ event: 'progress', value: -1 }], 'no taskbar progress without a download');

    // The first quit is held while the server closes; the second one goes through.
    assert.deepEqual(order.slice(-3), ['quit', 'quit', 'exit']);
    await assert.rejects(fetch(String(load.url)), 'the server no longer listens');
    const files = await fs.readdir(userData);
    assert.ok(files.includes('trainbench.sqlite') && files.includes('secrets.json'), `data lives in the user-data folder: ${files.join(', ')}`);
    assert.ok(!files.includes('server.running'), 'the server stopped cleanly');
    const mainLog = await fs.readFile(path.join(userData, 'logs', 'main.log'), 'utf8');
    assert.match(mainLog, /INFO  Trainbench 1\.3\.0-test starting/);
    assert.match(mainLog, /INFO  quit\n$/);
    assert.match(await fs.readFile(path.join(userData, 'logs', 'server.log'), 'utf8'), /server stopped cleanly; write-ahead log checkpointed/);
  } finally {
    await fs.rm(userData, { recursive: true, force: true });
  }
});

test('a server that cannot start is explained in a dialog and the app exits with 1', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-wiring-'));
  const notAFolder = path.join(dir, 'file');
  await fs.writeFile(notAFolder, 'not a folder');
  try {
    const { code, events, output } = await runMain({ FAKE_USER_DATA: dir, DATA_DIR: notAFolder, JWT_SECRET: 'x'.repeat(32) });
    assert.equal(code, 1, output);
    const box = events.find((e) => e.event === 'error-box');
    assert.ok(box, output);
    assert.equal(box.title, 'Trainbench could not start');
    assert.match(String(box.detail), /is a file, not a folder/);
    assert.ok(!names(events).includes('window'), 'no window without a server');
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});

test('on a Chinese system the explanation is in Chinese', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-wiring-'));
  const notAFolder = path.join(dir, 'file');
  await fs.writeFile(notAFolder, 'not a folder');
  try {
    const { code, events, output } = await runMain({ FAKE_USER_DATA: dir, DATA_DIR: notAFolder, JWT_SECRET: 'x'.repeat(32), FAKE_LANGUAGES: 'zh-CN,en-US' });
    assert.equal(code, 1, output);
    const box = events.find((e) => e.event === 'error-box');
    assert.equal(box?.title, 'Trainbench 无法启动', output);
    assert.match(String(box?.detail), /是一个文件而不是文件夹/);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});

test('Help opens the log folder and shows the versions; a killed server is restarted with a notice in the window', async () => {
  const userData = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-wiring-'));
  try {
    const { code, events, output } = await runMain({ FAKE_USER_DATA: userData, FAKE_SCENARIO: 'menu,crash' });
    assert.equal(code, 0, output);

    assert.deepEqual(events.filter((e) => e.event === 'click').map((e) => e.label), ['Open log folder', 'About Trainbench']);
    assert.deepEqual(events.find((e) => e.event === 'open-path'), { event: 'open-path', path: path.join(userData, 'logs') });
    const about = events.find((e) => e.event === 'message-box' && e.title === 'About Trainbench');
    assert.ok(about, output);
    assert.match(String(about.detail), /^Server: 1\.3\.0, API 1\.3\.0\nDatabase: SQLite 3\.\d+\.\d+, schema \d{3}_\w+\n/);
    assert.match(String(about.detail), new RegExp(`Logs: ${path.join(userData, 'logs').replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}`));

    const after = events.slice(events.findIndex((e) => e.event === 'kill-server'));
    assert.deepEqual(after.filter((e) => e.event === 'title').map((e) => e.title), ['Trainbench — the local server stopped unexpectedly and is restarting…', 'Trainbench']);
    assert.deepEqual(
      after.filter((e) => e.event === 'send' && e.channel === 'server:status').map((e) => e.payload),
      [{ state: 'restarting', message: 'the local server stopped unexpectedly and is restarting…' }, { state: 'running', message: null }],
    );
    assert.equal(events.filter((e) => e.event === 'utility-fork').length, 2, 'one new server process');
    const mainLog = await fs.readFile(path.join(userData, 'logs', 'main.log'), 'utf8');
    assert.match(mainLog, /ERROR the server process stopped unexpectedly \(signal SIGKILL\); restarting it \(restart 1 of at most 3 a minute\)/);
    assert.match(mainLog, /INFO  the server is back on http:\/\/127\.0\.0\.1:\d+/);
    assert.match(await fs.readFile(path.join(userData, 'logs', 'server.log'), 'utf8'), /recovered from an unclean stop/);
    assert.ok(!(await fs.readdir(userData)).includes('server.running'), 'the restarted server stopped cleanly at quit');
  } finally {
    await fs.rm(userData, { recursive: true, force: true });
  }
});
