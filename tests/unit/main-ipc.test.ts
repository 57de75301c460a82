import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { registerAppIpc, sendEvent } from '../../main/ipc/app.js';
import { notApplicable } from '../../server/system/update-status.js';
import { UntrustedSenderError, type InvokeEvent, type IpcMainLike } from '../../main/ipc/register.js';
import type { IpcChannel } from '../../main/ipc/bridge.js';

const APP = 'http://127.0.0.1:3210';

class FakeIpcMain implements IpcMainLike {
  handlers = new Map<string, (event: InvokeEvent, ...args: unknown[]) => unknown>();
  handle(channel: string, listener: (event: InvokeEvent, ...args: unknown[]) => unknown) {
    assert.ok(!this.handlers.has(channel), `${channel} registered twice`);
    this.handlers.set(channel, listener);
  }
  invoke(channel: IpcChannel, senderUrl: string | null, ...args: unknown[]) {
    const handler = this.handlers.get(channel);
    assert.ok(handler, `${channel} has no handler`);
    return handler(senderUrl === null ? { senderFrame: null } : { senderFrame: { url: senderUrl } }, ...args);
  }
}

let ipc: FakeIpcMain;
let opened: string[];
let installs: number;
const status = notApplicable('1.3.0', 'The app runs from source (npm start): only an installed build updates itself.');

beforeEach(() => {
  ipc = new FakeIpcMain();
  opened = [];
  installs = 0;
  const updates = { current: status, install: () => (installs++, false) };
  registerAppIpc(ipc, { appOrigin: APP, version: '1.3.0', openExternal: (url) => void opened.push(url), updates });
});

test('registers exactly the invoke channels of the bridge', () => {
  assert.deepEqual([...ipc.handlers.keys()].sort(), ['app:get-version', 'app:open-external', 'update:get-status', 'update:install']);
});

test('answers app pages', async () => {
  assert.equal(await ipc.invoke('app:get-version', `${APP}/#/`), '1.3.0');
  assert.equal(await ipc.invoke('app:open-external', `${APP}/`, 'https://example.com/help'), true);
  assert.deepEqual(opened, ['https://example.com/help']);
  assert.deepEqual(await ipc.invoke('update:get-status', `${APP}/`), status);
  assert.equal(await ipc.invoke('update:install', `${APP}/`), false);
  assert.equal(installs, 1);
});

test('events go to a live window only', () => {
  const sent: unknown[][] = [];
  const window = { destroyed: false, isDestroyed() { return this.destroyed; }, webContents: { send: (...args: unknown[]) => void sent.push(args) } };
  sendEvent(window, 'server:status', { state: 'restarting', message: 'x' });
  window.destroyed = true;
  sendEvent(window, 'update:status', status);
  sendEvent(null, 'update:status', status);
  assert.deepEqual(sent, [['server:status', { state: 'restarting', message: 'x' }]]);
});

test('refuses frames that are not app pages', () => {
  for (const sender of ['https://evil.example/', 'http://127.0.0.1:3211/', 'file:///index.html', 'about:blank', null]) {
    assert.throws(() => ipc.invoke('app:get-version', sender), UntrustedSenderError, String(sender));
    assert.throws(() => ipc.invoke('app:open-external', sender, 'https://example.com/'), UntrustedSenderError, String(sender));
    assert.throws(() => ipc.invoke('update:install', sender), UntrustedSenderError, String(sender));
  }
  assert.equal(installs, 0);
  assert.deepEqual(opened, []);
});

test('open-external from the app still refuses hostile URLs', async () => {
  for (const url of ['javascript:alert(1)', 'file:///etc/passwd', '\\\\host\\share\\x.exe', 42, undefined, { url: 'https://example.com' }]) {
    assert.equal(await ipc.invoke('app:open-external', `${APP}/`, url), false, String(url));
  }
  assert.deepEqual(opened, []);
});
