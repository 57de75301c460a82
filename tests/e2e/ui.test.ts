// The UI as a person uses it: the built renderer served by the real server, driven in headless Chromium.
// Needs renderer/dist (npx vite build --config renderer/vite.config.ts) and Debian's /usr/bin/chromium.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { assertRendererBuilt, openBrowser, screenshot, skipWithoutChromium } from './browser.js';
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../support/server.js';
import { LoginPage } from './page-models/login-page.js';
import { Shell } from './page-models/shell.js';
import { ProductsPage } from './page-models/products-page.js';
import { NotificationsPage } from './page-models/notifications-page.js';

const skip = skipWithoutChromium;

describe('desktop UI in Chromium', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let pageErrors: string[] = [];
  const suffix = crypto.randomBytes(3).toString('hex');
  const product = { name: `Steady Income Fund ${suffix}`, code: `SIF-${suffix}`, category: 'capital_consulting', summary: 'A low-risk fund paying quarterly income.', description: 'Invests in short-dated government bonds.' };
  const notice = { title: `Quarterly product update ${suffix}`, content: 'New products are in the catalog.', link: '/products' };

  before(async () => {
    assertRendererBuilt();
    server = await startTestServer();
    const home = await fetch(`${server.url}/`, { headers: { accept: 'text/html' } });
    assert.equal(home.status, 200, 'GET / must serve the renderer: is serveRenderer() mounted in server/app.ts?');

    const created = await server.api.post('/api/products', { token: server.adminToken, body: product });
    assert.equal(created.status, 201, created.text);
    const me = await server.api.get('/api/auth/me', { token: server.adminToken });
    const sent = await server.api.post('/api/notifications', { token: server.adminToken, body: { user_id: me.body.data.id, ...notice } });
    assert.equal(sent.status, 201, sent.text);

    ({ browser, page, pageErrors } = await openBrowser());
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('an admin logs in and lands on the home page', async () => {
    await page.goto(`${server.url}/`);
    await new LoginPage(page).logIn('admin', ADMIN_PASSWORD);
    const shell = new Shell(page);
    assert.match((await shell.heading().textContent()) ?? '', /^Welcome, /);
    await shell.nav.getByRole('link', { name: 'System settings' }).waitFor();
  });

  test('a product created through the API is listed, filterable and opens', async () => {
    const shell = new Shell(page);
    const products = new ProductsPage(page);
    await shell.open('Products');
    await products.card(product.name).waitFor();
    await products.filterBy('Capital consulting');
    await products.card(product.name).waitFor();
    assert.match(page.url(), /#\/products\?category=capital_consulting$/);
    await page.screenshot({ path: screenshot('products'), fullPage: true });

    await products.card(product.name).click();
    await page.getByRole('heading', { level: 1, name: product.name }).waitFor();
    await page.getByText(product.description).waitFor();
    await page.getByText(product.code, { exact: true }).waitFor();
  });

  test('the unread badge counts the notification until it is marked read', async () => {
    const shell = new Shell(page);
    const notifications = new NotificationsPage(page);
    assert.equal(await shell.unreadBadge().textContent(), '1');
    await shell.open('Notifications');
    await notifications.item(notice.title).waitFor();
    await page.screenshot({ path: screenshot('notifications-unread'), fullPage: true });

    await notifications.markRead(notice.title);
    await shell.unreadBadge().waitFor({ state: 'detached' });
    const count = await server.api.get('/api/notifications/unread-count', { token: server.adminToken });
    assert.deepEqual(count.body.data, { unread: 0 });
    await page.screenshot({ path: screenshot('notifications-read'), fullPage: true });
  });

  test('logging out returns to the login screen and forgets the token', async () => {
    await new Shell(page).nav.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('form', { name: 'Log in' }).waitFor();
    assert.equal(await page.evaluate(() => sessionStorage.getItem('trainbench.token')), null);
  });

  test('an expired or revoked token sends the user back to the login screen', async () => {
    await new LoginPage(page).logIn('admin', ADMIN_PASSWORD);
    await page.evaluate(() => sessionStorage.setItem('trainbench.token', 'not-a-valid-token'));
    await new Shell(page).open('Courses');
    await page.getByText('Your session has ended. Please log in again.').waitFor();
    await page.getByRole('form', { name: 'Log in' }).waitFor();
  });

  test('course text written as HTML is shown without its scripts, handlers or javascript: links', async () => {
    const course = await server.api.post('/api/courses', {
      token: server.adminToken,
      body: { title: `Objection handling ${suffix}`, content: '<h1>Opening</h1><p onclick="steal()">Ask about <b>goals</b>.</p><script>window.hacked = 1</script><a href="javascript:steal()">trap</a> <a href="https://example.com/guide">guide</a>' },
    });
    assert.equal(course.status, 201, course.text);
    await new LoginPage(page).logIn('admin', ADMIN_PASSWORD);
    await page.goto(`${server.url}/#/courses/${course.body.data.id}`);
    const text = page.locator('.rich-text');
    await text.getByText('goals').waitFor();
    assert.equal(await text.locator('script, [onclick], a[href^="javascript"]').count(), 0);
    assert.equal(await text.getByRole('link', { name: 'guide' }).getAttribute('target'), '_blank');
    assert.equal(await page.evaluate(() => (window as unknown as { hacked?: number }).hacked), undefined);
  });

  test('the coach\'s quick actions work on the chosen product: commission with and without an amount, comparison', async () => {
    const category = `savings_${suffix}`;
    const make = async (name: string, code: string, rate: number) => {
      const res = await server.api.post('/api/products', { token: server.adminToken, body: { name, code, category, commission_rate: rate } });
      assert.equal(res.status, 201, res.text);
      return res.body.data as { id: number };
    };
    const steady = await make(`Steady ${suffix}`, `ST-${suffix}`, 2.5);
    await make(`Growth ${suffix}`, `GR-${suffix}`, 1.5);
    await new Shell(page).open('AI coach');
    const actions = page.getByRole('region', { name: 'Quick actions' });
    await actions.getByText('Choose a product above to use the quick actions.').waitFor();
    await page.getByLabel('Product', { exact: true }).selectOption(String(steady.id));

    await actions.getByRole('button', { name: 'Commission calculator' }).click();
    await actions.getByText(`Steady ${suffix} (ST-${suffix}) pays a 2.5% commission`, { exact: false }).waitFor();
    await actions.getByText('10,000 × 2.5% = 250', { exact: false }).waitFor();
    await actions.getByLabel('Amount').fill('20000');
    await actions.getByRole('button', { name: 'Commission calculator' }).click();
    await actions.getByText('20,000 × 2.5% = 500', { exact: false }).waitFor();

    await actions.getByRole('button', { name: 'Compare products' }).click();
    const table = actions.getByRole('table', { name: 'Product comparison' });
    await table.getByRole('columnheader', { name: `Growth ${suffix}` }).waitFor();
    assert.deepEqual(await table.getByRole('row', { name: /Commission rate/ }).getByRole('cell').allTextContents(), ['2.5', '1.5']);
  });

  test('an employee sees no administration', async () => {
    const employee = await server.user('employee');
    await new Shell(page).nav.getByRole('button', { name: 'Log out' }).click();
    await new LoginPage(page).logIn(employee.username, 'secret-pass');
    const shell = new Shell(page);
    assert.equal(await shell.nav.getByText('Administration').count(), 0);
    await page.goto(`${server.url}/#/admin/users`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
  });

  test('no script errors or blocked resources', () => {
    const expected = [
      // The deliberate 401 of the expired-token test.
      /status of 401|^401 \/api\/courses$/,
      // Chromium reports the onclick of course HTML parsed (inertly) for sanitising as blocked by the CSP.
      /inline event handler violates the following Content Security Policy/,
    ];
    assert.deepEqual(pageErrors.filter((e) => !expected.some((re) => re.test(e))), []);
  });
});
