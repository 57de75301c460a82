// Sync through the admin screens, in headless Chromium against two real servers: the central admin enrols a device
// and hands over its one-time code, the branch admin connects with it and syncs now; the device shows as enrolled.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { assertRendererBuilt, openBrowser, skipWithoutChromium } from './browser.js';
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../support/server.js';
import { LoginPage } from './page-models/login-page.js';
import { Shell } from './page-models/shell.js';
import { DevicesPage, SyncPage } from './page-models/sync-pages.js';
import { zh } from './i18n.js';
import { expectAccessible } from './axe.js';
import { snap } from './screenshots.js';

describe('sync screens in Chromium', { skip: skipWithoutChromium }, () => {
  let central: TestServer;
  let branch: TestServer;
  let browser: Browser;
  let page: Page;
  let pageErrors: string[] = [];
  let token = '';

  const openAsAdmin = async (server: TestServer, screen: string) => {
    await page.goto(`${server.url}/`);
    await new LoginPage(page).logIn('admin', ADMIN_PASSWORD);
    await new Shell(page).open(screen);
  };

  before(async () => {
    assertRendererBuilt();
    [central, branch] = await Promise.all([startTestServer(), startTestServer()]);
    ({ browser, page, pageErrors } = await openBrowser());
  });
  after(async () => {
    await browser?.close();
    await Promise.all([central?.close(), branch?.close()]);
  });

  test('a central admin enrols a device and sees its code once', async () => {
    await openAsAdmin(central, 'syncDevices');
    await page.getByText(zh('branchSync.devices.empty')).waitFor();
    token = await new DevicesPage(page).create('Branch Shenzhen');
    assert.match(token, /^tbe_/);
    await new DevicesPage(page).row('Branch Shenzhen').getByText(zh('branchSync.devices.state.waiting')).waitFor();
    await expectAccessible(page, 'branch devices');
    await snap(page, 'admin-sync', '01-devices-zh');
  });

  test('the branch admin connects with the code and syncs now', async () => {
    await new Shell(page).logOut();
    await openAsAdmin(branch, 'sync');
    const sync = new SyncPage(page);
    await sync.enrol('http://example.com', token);
    await page.getByText(zh('errors.sync_insecure_url')).waitFor();
    await sync.enrol(central.url, token);
    await sync.status().waitFor();
    await sync.syncNow();
    await page.getByText(/已上传 0 条/).waitFor();
    await sync.status().getByText(zh('branchSync.state.idle')).waitFor();
    // The header tells everyone on the branch that it is connected.
    await page.locator('[data-testid="sync-indicator"][data-state="idle"]').getByText(zh('branchSync.indicator.online')).waitFor();
    const employee = await branch.user('employee');
    assert.equal((await branch.api.get('/api/sync/indicator')).status, 401);
    assert.equal((await branch.api.get('/api/sync/indicator', { token: employee.token })).body.data.enrolled, true);
    assert.equal((await branch.api.get('/api/sync/status', { token: employee.token })).status, 403);
    await expectAccessible(page, 'sync');
    await snap(page, 'admin-sync', '02-sync-zh');
    const devices = (await central.api.get('/api/sync/devices', { token: central.adminToken })).body.data as { name: string; state: string }[];
    assert.equal(devices.find((d) => d.name === 'Branch Shenzhen')?.state, 'enrolled');
    // Only the refused http:// address, on purpose.
    assert.deepEqual(pageErrors.filter((e) => !/400/.test(e)), []);
  });
});
