import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { registerAppIpc } from '../../main/ipc/app.js';
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

beforeEach(() => {
  ipc = new FakeIpcMain();
  opened = [];
  registerAppIpc(ipc, { appOrigin: APP, version: '1.3.0', openExternal: (url) => void opened.push(url) });
});

test('registers exactly the app:* channels of the bridge', () => {
  assert.deepEqual([...ipc.handlers.keys()].sort(), ['app:get-version', 'app:open-external']);
});

test('answers app pages', async () => {
  assert.equal(await ipc.invoke('app:get-version', `${APP}/#/`), '1.3.0');
  assert.equal(await ipc.invoke('app:open-external', `${APP}/`, 'https://example.com/help'), true);
  assert.deepEqual(opened, ['https://example.com/help']);
});

test('refuses frames that are not app pages', () => {
  for (const sender of ['https://evil.example/', 'http://127.0.0.1:3211/', 'file:///index.html', 'about:blank', null]) {
    assert.throws(() => ipc.invoke('app:get-version', sender), UntrustedSenderError, String(sender));
    assert.throws(() => ipc.invoke('app:open-external', sender, 'https://example.com/'), UntrustedSenderError, String(sender));
  }
  assert.deepEqual(opened, []);
});

test('open-external from the app still refuses hostile URLs', async () => {
  for (const url of ['javascript:alert(1)', 'file:///etc/passwd', '\\\\host\\share\\x.exe', 42, undefined, { url: 'https://example.com' }]) {
    assert.equal(await ipc.invoke('app:open-external', `${APP}/`, url), false, String(url));
  }
  assert.deepEqual(opened, []);
});
