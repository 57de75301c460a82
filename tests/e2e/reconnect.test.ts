// A server restart under an open page: the page says it is reconnecting instead of going blank, a change made
// meanwhile waits, and once the server answers again the data comes back and the change is sent.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { skipWithoutChromium } from './browser.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { Shell } from './page-models/shell.js';
import { NotificationsPage } from './page-models/notifications-page.js';
import { zh } from './i18n.js';
import { expectAccessible } from './axe.js';
import { snap } from './screenshots.js';
import { openSignedIn } from './signed-in.js';

describe('the UI while its server restarts', { skip: skipWithoutChromium }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let pageErrors: string[] = [];
  let employee: { id: number; username: string; token: string };

  before(async () => {
    server = await startTestServer();
    employee = await server.user('employee');
    for (const title of ['第一条通知', '第二条通知']) {
      const sent = await server.api.post('/api/notifications', { token: server.adminToken, body: { user_id: employee.id, title, content: '请查看。' } });
      assert.equal(sent.status, 201, sent.text);
    }
    ({ browser, page, pageErrors } = await openSignedIn(server, { username: employee.username }));
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('a stopped server shows "reconnecting", keeps the page, queues a change and sends it once the server is back', async () => {
    const shell = new Shell(page);
    const notifications = new NotificationsPage(page);
    await shell.bell.click();
    await notifications.item('第一条通知').waitFor();

    await server.stop();
    await notifications.item('第一条通知').getByRole('button', { name: zh('notifications.markRead') }).click();
    await shell.connectionBanner.getByText(zh('shell.connection.reconnecting')).waitFor();
    await notifications.item('第二条通知').waitFor();
    await shell.connectionBanner.getByText(zh('shell.connection.waiting', { count: 1 })).waitFor();
    await expectAccessible(page, 'the page while reconnecting');
    await snap(page, 'resilience', '01-reconnecting-zh');

    await server.restart({ samePort: true });
    await shell.connectionBanner.waitFor({ state: 'detached' });
    await notifications.item('第一条通知').getByRole('button', { name: zh('notifications.markRead') }).waitFor({ state: 'detached' });
    await page.locator('[data-testid="notifications-bell"][data-unread="1"]').waitFor();
    const count = await server.api.get('/api/notifications/unread-count', { token: employee.token });
    assert.deepEqual(count.body.data, { unread: 1 }, 'the change made while the server was down reached it');
  });

  test('pages opened while it is down wait for it instead of failing', async () => {
    await server.stop();
    await new Shell(page).open('courses');
    await new Shell(page).connectionBanner.waitFor();
    await server.restart({ samePort: true });
    await page.getByRole('heading', { level: 1, name: zh('courses.title') }).waitFor();
    await page.getByText(zh('courses.empty')).waitFor();
    await new Shell(page).connectionBanner.waitFor({ state: 'detached' });
  });

  test('nothing failed but the requests the stopped server could not answer', () => {
    assert.deepEqual(pageErrors.filter((e) => !/ERR_CONNECTION_REFUSED|Failed to load resource/.test(e)), []);
  });
});
