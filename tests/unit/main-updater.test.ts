import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { shouldCheckForUpdates, startUpdater, type AutoUpdaterLike } from '../../main/updater.js';
import type { Logger } from '../../main/log.js';

class FakeUpdater extends EventEmitter implements AutoUpdaterLike {
  logger: unknown = console;
  autoDownload = false;
  checks = 0;
  constructor(private readonly result: () => Promise<unknown>) {
    super();
  }
  checkForUpdatesAndNotify() {
    this.checks++;
    return this.result();
  }
}

function recordingLog() {
  const lines: { level: 'info' | 'error'; args: unknown[] }[] = [];
  const log: Logger = { info: (...args) => void lines.push({ level: 'info', args }), error: (...args) => void lines.push({ level: 'error', args }) };
  return { lines, log };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

test('only an installed build outside tests checks for updates', () => {
  assert.equal(shouldCheckForUpdates(true, {}), true);
  assert.equal(shouldCheckForUpdates(false, {}), false, 'npm start runs from source');
  assert.equal(shouldCheckForUpdates(true, { NODE_ENV: 'test' }), false);
  assert.equal(shouldCheckForUpdates(true, { TRAINBENCH_DISABLE_UPDATES: '1' }), false);
});

test('disabled: the updater is not created at all', () => {
  let built = 0;
  const { lines, log } = recordingLog();
  const updater = () => {
    built++;
    return new FakeUpdater(() => Promise.resolve(null));
  };
  assert.equal(startUpdater({ updater, enabled: false, log }), false);
  assert.equal(built, 0, 'electron-updater is never even instantiated');
  assert.deepEqual(lines, []);
});

test('enabled: checks once, silences electron-updater and logs nothing on success', async () => {
  const updater = new FakeUpdater(() => Promise.resolve({ updateInfo: { version: '1.3.1' } }));
  const { lines, log } = recordingLog();
  assert.equal(startUpdater({ updater: () => updater, enabled: true, log }), true);
  await settle();
  assert.equal(updater.checks, 1);
  assert.equal(updater.logger, null);
  assert.equal(updater.autoDownload, true);
  assert.deepEqual(lines, []);
});

test('a failed check (emitted and rejected) is logged once and never thrown', async () => {
  const failure = new Error('net::ERR_NAME_NOT_RESOLVED');
  let updater!: FakeUpdater;
  updater = new FakeUpdater(() => {
    updater.emit('error', failure);
    return Promise.reject(failure);
  });
  const { lines, log } = recordingLog();
  startUpdater({ updater: () => updater, enabled: true, log });
  await settle();
  assert.equal(lines.length, 1);
  assert.equal(lines[0]!.level, 'error');
  assert.deepEqual(lines[0]!.args, ['update check failed', 'net::ERR_NAME_NOT_RESOLVED']);

  updater.emit('error', new Error('download failed'));
  assert.equal(lines.length, 2, 'a later, different failure is logged too');
});
