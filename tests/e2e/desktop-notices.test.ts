// What the desktop app's main process tells the window (update progress, an update ready to install, the embedded
// server restarting), and the admin's update settings. The preload bridge is replaced by a script that implements
// the same DesktopBridge interface and lets the test send its events; the bridge itself is tested in tests/unit.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { assertRendererBuilt, openBrowser, skipWithoutChromium } from './browser.js';
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../support/server.js';
import { LoginPage } from './page-models/login-page.js';
import { Shell } from './page-models/shell.js';
import { zh } from './i18n.js';
import { expectAccessible } from './axe.js';
import { snap } from './screenshots.js';
import { chooseOption } from './antd.js';
import type { UpdateStatus } from '../../contract/system.js';

/** Installed before the app's scripts: window.trainbench as the preload builds it, driven by window.__emit. */
function installFakeBridge(): void {
  type Listener = (value: unknown) => void;
  const listeners: Record<string, Listener[]> = { 'update:status': [], 'server:status': [] };
  const on = (channel: string) => (listener: Listener) => {
    listeners[channel]!.push(listener);
    return () => void listeners[channel]!.splice(listeners[channel]!.indexOf(listener), 1);
  };
  const state = window as unknown as { __installs: number; __update: unknown; __emit: (channel: string, value: unknown) => void };
  state.__installs = 0;
  state.__update = null;
  state.__emit = (channel, value) => {
    if (channel === 'update:status') state.__update = value;
    for (const listener of listeners[channel]!) listener(value);
  };
  (window as unknown as { trainbench: unknown }).trainbench = {
    getVersion: async () => '1.3.0',
    openExternal: async () => true,
    getUpdateStatus: async () => state.__update,
    installUpdate: async () => {
      state.__installs += 1;
      return true;
    },
    onUpdateStatus: on('update:status'),
    onServerStatus: on('server:status'),
  };
}

const update = (fields: Partial<UpdateStatus>): UpdateStatus => ({
  applies: true,
  reason: null,
  state: 'idle',
  installed_version: '1.3.0',
  available_version: null,
  downloaded_version: null,
  progress: null,
  feed_url: 'https://updates.example.com/trainbench/',
  last_checked_at: null,
  next_check_at: null,
  error: null,
  ...fields,
});

describe('desktop notices and update settings', { skip: skipWithoutChromium }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  const emit = (channel: string, value: unknown) => page.evaluate(([c, v]) => (window as unknown as { __emit: (c: string, v: unknown) => void }).__emit(c, v), [channel, value] as const);

  before(async () => {
    assertRendererBuilt();
    server = await startTestServer();
    ({ browser, page } = await openBrowser());
    // As source: the test runner's transpiler names functions through a `__name` helper the page does not have.
    await page.addInitScript({ content: `var __name = (f) => f; (${installFakeBridge.toString()})();` });
    await page.goto(`${server.url}/`);
    await new LoginPage(page).logIn('admin', ADMIN_PASSWORD);
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('a download shows its progress; a downloaded update asks before restarting, and "later" hides it', async () => {
    const notice = page.getByTestId('update-notice');
    await emit('update:status', update({ state: 'downloading', available_version: '1.4.0', progress: { percent: 42.5, transferred: 425, total: 1000, bytes_per_second: 100 } }));
    await notice.getByText(zh('system.update.downloading', { version: '1.4.0' })).waitFor();
    assert.equal(await notice.getByRole('progressbar').getAttribute('aria-valuenow'), '42');

    await emit('update:status', update({ state: 'downloaded', available_version: '1.4.0', downloaded_version: '1.4.0' }));
    await notice.getByText(zh('system.update.ready', { version: '1.4.0' })).waitFor();
    await expectAccessible(page, 'the update-ready notice');
    await snap(page, 'desktop', '01-update-ready-zh');
    await notice.getByRole('button', { name: zh('system.update.restart') }).click();
    const dialog = page.getByRole('dialog', { name: zh('system.update.confirmTitle', { version: '1.4.0' }) });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: zh('system.update.later') }).click();
    assert.equal(await page.evaluate(() => (window as unknown as { __installs: number }).__installs), 0, 'cancelling the dialog installs nothing');

    await notice.getByRole('button', { name: zh('system.update.restart') }).click();
    await dialog.getByRole('button', { name: zh('system.update.restart') }).click();
    await page.waitForFunction(() => (window as unknown as { __installs: number }).__installs === 1);

    await notice.getByRole('button', { name: zh('system.update.later') }).click();
    await notice.waitFor({ state: 'detached' });
  });

  test('an offline check or a failed download says nothing to users', async () => {
    await emit('update:status', update({ state: 'offline' }));
    await emit('update:status', update({ state: 'error', error: 'net::ERR_NAME_NOT_RESOLVED' }));
    await page.getByRole('heading', { level: 1 }).waitFor();
    assert.equal(await page.getByTestId('update-notice').count(), 0);
  });

  test('the embedded server restarting, back, and given up on', async () => {
    const notice = page.getByTestId('server-status');
    await emit('server:status', { state: 'restarting', message: 'The server stopped unexpectedly; restarting it.' });
    await notice.getByText(zh('system.server.restarting')).waitFor();
    await emit('server:status', { state: 'running', message: null });
    await notice.waitFor({ state: 'detached' });
    await emit('server:status', { state: 'stopped', message: 'The server keeps stopping.' });
    await notice.getByText(zh('system.server.stopped')).waitFor();
    assert.equal(await notice.getAttribute('role'), 'alert');
    await snap(page, 'desktop', '02-server-stopped-zh');
    await emit('server:status', { state: 'running', message: null });
    await notice.waitFor({ state: 'detached' });
  });

  test('an admin sets the update address (validated) and the speech and coaching switches, and sees the update status', async () => {
    await new Shell(page).open('config');
    const address = page.getByLabel(zh('system.config.updateUrl'));
    await address.fill('ftp://updates.example.com');
    await page.getByRole('button', { name: zh('admin.config.save') }).click();
    await page.getByText(zh('common.validation.url')).waitFor();
    await address.fill('https://updates.example.com/trainbench/');
    await page.getByRole('switch', { name: zh('system.config.adminListen') }).click();
    await chooseOption(page, page.getByLabel(zh('system.config.branchParameters')), 'audio_cloud_fallback');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: zh('admin.config.save') }).click();
    await page.getByText(zh('admin.config.saved')).waitFor();
    const config = await server.api.get('/api/system/config', { token: server.adminToken });
    assert.deepEqual(config.body.data.branch_parameters, ['audio_cloud_fallback'], 'the parameters branches take');
    assert.equal(config.body.data.update_base_url, 'https://updates.example.com/trainbench/');
    assert.equal(config.body.data.coaching_admin_listen, true);
    assert.equal(config.body.data.audio_cloud_fallback, false, 'untouched switches keep their value');

    const status = page.getByTestId('update-status');
    await status.getByText(zh('system.status.notApplicableHint')).waitFor();
    await status.getByText(zh('system.status.states.not-applicable')).waitFor();
    await expectAccessible(page, 'system settings');
    await snap(page, 'desktop', '03-settings-zh');
  });
});
