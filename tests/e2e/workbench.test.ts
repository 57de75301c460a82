// The digital worker page in headless Chromium against the real server and a fake OpenAI-compatible model on
// loopback: a first message starts a task with the chosen specialist, the reply streams in, and the task can be
// continued later; tasks are pinned, renamed and deleted; a skill run's table is shown and downloaded; notes are
// written and searched.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { assertRendererBuilt, openBrowser, skipWithoutChromium } from './browser.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { startFakeModel, type FakeModel } from '../support/fake-model.js';
import fs from 'node:fs';
import { LoginPage } from './page-models/login-page.js';
import { NotesPage, WorkbenchPage } from './page-models/workbench-page.js';
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
  let employeeToken = '';

  before(async () => {
    assertRendererBuilt();
    server = await startTestServer();
    model = await startFakeModel({ chunks: ['Three invoices', ' are overdue.'] });
    const admin = { token: server.adminToken };
    assert.equal((await server.api.put('/api/system/config', { ...admin, body: { configs: { llm_base_url: model.baseUrl, llm_model: 'fake-model' } } })).status, 200);
    const clerk = await server.api.post('/api/specialists', { ...admin, body: { key: 'invoice_clerk', name: 'Invoice clerk', rule_file_markdown: 'You check invoices against purchase orders.' } });
    assert.equal(clerk.status, 201, clerk.text);
    const employee = await server.user('employee');
    employeeToken = employee.token;
    ({ browser, page, pageErrors } = await openBrowser({ acceptDownloads: true }));
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

  test('tasks are pinned (pinned first), renamed and deleted after confirming', async () => {
    const workbench = new WorkbenchPage(page);
    await workbench.newTask();
    model.behave({ chunks: ['Supplier list ready.'] });
    await workbench.send('List the suppliers of April.');
    await workbench.task(/List the suppliers of April\./).waitFor();
    assert.match((await workbench.taskButtons().first().textContent())!, /List the suppliers/, 'the newest task comes first');

    await workbench.task(/Check the March invoices\./).click();
    await workbench.togglePin();
    await workbench.task(zh('workbench.task.pinned')).waitFor();
    assert.match((await workbench.taskButtons().first().textContent())!, /Check the March invoices/, 'a pinned task comes first');
    await expectAccessible(page, 'a selected, pinned task');
    await snap(page, 'trainee-workbench', '02-task-pinned');

    await workbench.rename('三月发票核对');
    await workbench.task(/三月发票核对/).waitFor();
    await workbench.conversation.getByRole('heading', { name: '三月发票核对' }).waitFor();

    await workbench.delete('三月发票核对', { confirm: false });
    assert.equal(await workbench.taskButtons().count(), 2, 'cancelling keeps the task');
    await workbench.delete('三月发票核对');
    await workbench.task(/三月发票核对/).waitFor({ state: 'detached' });
    await page.getByText(zh('workbench.intro')).waitFor();
    assert.equal(await workbench.taskButtons().count(), 1);
    const left = await server.api.get('/api/worker/my-tasks', { token: employeeToken });
    assert.deepEqual(left.body.data.map((t: { title: string }) => t.title), ['List the suppliers of April.']);
  });

  test('a skill run\'s table is shown and downloads as a CSV that keeps its Chinese', async () => {
    model.behave({ chunks: ['{"columns":["发票号","金额"],"rows":[["INV-1",1200],["INV-2","800, 含税"]]}'] });
    const run = await fetch(`${server.url}/api/worker/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${employeeToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'Extract the invoices.', skill_key: 'batch_extraction', documents: [{ name: 'invoices.txt', content: 'INV-1 1200; INV-2 800' }] }),
    });
    assert.equal(run.status, 200);
    await run.text();
    await page.reload();
    const workbench = new WorkbenchPage(page);
    await workbench.task(/Extract the invoices\./).click();
    const table = workbench.artifacts.getByRole('table');
    await table.getByRole('cell', { name: '800, 含税' }).waitFor();
    await expectAccessible(page, 'a task with a table artifact');
    await snap(page, 'trainee-workbench', '03-artifact-table');
    const [download] = await Promise.all([page.waitForEvent('download'), workbench.artifacts.getByRole('button', { name: new RegExp(zh('workbench.artifacts.download')) }).click()]);
    assert.match(download.suggestedFilename(), /\.csv$/);
    const csv = fs.readFileSync((await download.path())!, 'utf8');
    assert.equal(csv, '\uFEFF发票号,金额\r\nINV-1,1200\r\nINV-2,"800, 含税"\r\n');
  });

  test('tasks are searched on the server, and shown per project picked by a search of its name', async () => {
    const workbench = new WorkbenchPage(page);
    await workbench.searchTasks('suppliers');
    await workbench.task(/Extract the invoices\./).waitFor({ state: 'detached' });
    assert.deepEqual(await workbench.taskButtons().allTextContents().then((texts) => texts.map((x) => x.includes('List the suppliers'))), [true]);
    await workbench.searchTasks('没有这样的任务');
    await workbench.tasks.getByText(zh('workbench.noTaskMatch')).waitFor();
    await workbench.searchTasks('');
    await workbench.taskButtons().nth(1).waitFor();

    // The project picked is older than the newest 20: only the server's search of names finds it.
    const as = { token: employeeToken };
    const target = (await server.api.post('/api/worker/projects', { ...as, body: { name: '华东拓客' } })).body.data;
    for (let i = 1; i <= 20; i++) assert.equal((await server.api.post('/api/worker/projects', { ...as, body: { name: `其他项目 ${i}` } })).status, 201);
    const left = (await server.api.get('/api/worker/my-tasks?q=Extract', as)).body.data;
    assert.equal((await server.api.put(`/api/worker/my-tasks/${left[0].id}`, { ...as, body: { project_id: target.id } })).status, 200);
    await page.reload();
    await chooseOption(page, workbench.projectFilter(), '华东拓客', { search: true });
    await workbench.task(/List the suppliers of April\./).waitFor({ state: 'detached' });
    assert.equal(await workbench.taskButtons().count(), 1);
    await workbench.task(/Extract the invoices\./).click();
    await workbench.conversation.getByRole('combobox', { name: zh('workbench.task.project') }).waitFor();
    assert.match((await workbench.conversation.locator('.project-select').textContent())!, /华东拓客/, 'the task names its project');
    await expectAccessible(page, 'tasks of one project');
    await snap(page, 'trainee-workbench', '04-project-tasks');
  });

  test('study notes are written and found by the server\'s search', async () => {
    await new Shell(page).open('notes');
    const notes = new NotesPage(page);
    await page.getByText(zh('workbench.notes.empty')).waitFor();
    await notes.create('反洗钱要点', '大额交易须在五个工作日内报告。');
    await notes.create('产品话术', '先问客户的投资期限。');
    await notes.list().getByRole('listitem').nth(1).waitFor();
    await notes.search('工作日');
    await notes.list().getByRole('heading', { name: '产品话术' }).waitFor({ state: 'detached' });
    await notes.list().getByRole('heading', { name: '反洗钱要点' }).waitFor();
    assert.equal(await notes.list().getByRole('listitem').count(), 1);
    await expectAccessible(page, 'the notes page');
    await snap(page, 'trainee-workbench', '05-notes-search');
  });

  test('notes come a page at a time', async () => {
    for (let i = 1; i <= 20; i++) assert.equal((await server.api.post('/api/notes', { token: employeeToken, body: { title: `周记 ${i}` } })).status, 201);
    const notes = new NotesPage(page);
    await notes.search('');
    await notes.list().getByRole('heading', { name: '周记 20' }).waitFor();
    assert.equal(await notes.list().getByRole('listitem').count(), 20);
    await notes.pager().getByRole('button', { name: zh('common.list.next') }).click();
    await notes.list().getByRole('heading', { name: '反洗钱要点' }).waitFor();
    assert.equal(await notes.list().getByRole('listitem').count(), 2);
    assert.match(page.url(), /page=2/);
  });

  test('no script errors or failed requests', () => {
    assert.deepEqual(pageErrors, []);
  });
});
