// The digital worker page in headless Chromium against the real server and a fake OpenAI-compatible model on
// loopback: a first message starts a task with the chosen specialist, the reply streams in, and the task can be
// continued later.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { assertRendererBuilt, openBrowser, skipWithoutChromium } from './browser.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { startFakeModel, type FakeModel } from '../support/fake-model.js';
import { LoginPage } from './page-models/login-page.js';
import { Shell } from './page-models/shell.js';
import { zh } from './i18n.js';
import { chooseOption } from './antd.js';
import { expectAccessible } from './axe.js';
import { snap } from './screenshots.js';

describe('digital worker in Chromium', { skip: skipWithoutChromium }, () => {
  let server: TestServer;
  let model: FakeModel;
  let browser: Browser;
  let page: Page;
  let pageErrors: string[] = [];

  before(async () => {
    assertRendererBuilt();
    server = await startTestServer();
    model = await startFakeModel({ chunks: ['Three invoices', ' are overdue.'] });
    const admin = { token: server.adminToken };
    assert.equal((await server.api.put('/api/system/config', { ...admin, body: { configs: { llm_base_url: model.baseUrl, llm_model: 'fake-model' } } })).status, 200);
    const clerk = await server.api.post('/api/specialists', { ...admin, body: { key: 'invoice_clerk', name: 'Invoice clerk', rule_file_markdown: 'You check invoices against purchase orders.' } });
    assert.equal(clerk.status, 201, clerk.text);
    const employee = await server.user('employee');
    ({ browser, page, pageErrors } = await openBrowser());
    await page.goto(`${server.url}/`);
    await new LoginPage(page).logIn(employee.username, 'secret-pass');
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await model?.close();
  });

  const composer = () => page.getByRole('form', { name: zh('workbench.composer') });
  const tasks = () => page.getByRole('region', { name: zh('workbench.tasks') });

  test('a first message starts a task with the chosen specialist and the reply streams in', async () => {
    await new Shell(page).open('workbench');
    await expectAccessible(page, 'the digital worker');
    await chooseOption(page, composer().getByRole('combobox', { name: zh('workbench.specialist') }), 'Invoice clerk');
    await composer().getByLabel(zh('workbench.message'), { exact: true }).fill('Check the March invoices. List the overdue ones.');
    await composer().getByRole('button', { name: zh('workbench.send') }).click();
    await tasks().getByRole('button', { name: /Check the March invoices\./ }).waitFor();
    const exchanges = page.getByRole('list', { name: zh('workbench.exchanges') });
    await exchanges.getByText('Three invoices are overdue.').waitFor();
    await snap(page, 'trainee-workbench', '01-task-zh');
    const system = model.requests.at(-1)!.body.messages![0]!.content;
    assert.match(system, /You check invoices against purchase orders\./, 'the specialist\'s job description went to the model');
  });

  test('a task is continued from the list, and its earlier exchanges come with it', async () => {
    await page.getByRole('button', { name: zh('workbench.newTask') }).click();
    await page.getByText(zh('workbench.intro')).waitFor();
    await tasks().getByRole('button', { name: /Check the March invoices\./ }).click();
    model.behave({ chunks: ['Reminders drafted.'] });
    await composer().getByLabel(zh('workbench.message'), { exact: true }).fill('Draft the reminders.');
    await composer().getByRole('button', { name: zh('workbench.send') }).click();
    const exchanges = page.getByRole('list', { name: zh('workbench.exchanges') });
    await exchanges.getByText('Reminders drafted.').waitFor();
    assert.equal(await exchanges.getByRole('listitem').count(), 2);
    const messages = model.requests.at(-1)!.body.messages!.map((m) => m.content);
    assert.ok(messages.includes('Three invoices are overdue.'), 'the earlier reply was sent as context');
    assert.equal(await tasks().getByRole('listitem').count(), 1, 'still one task');
  });

  test('no script errors or failed requests', () => {
    assert.deepEqual(pageErrors, []);
  });
});
