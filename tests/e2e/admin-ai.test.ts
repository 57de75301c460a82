// An admin sets up the AI side in Chromium against the real server and a fake OpenAI-compatible model on loopback:
// a chat route whose key is only ever shown masked and whose connection test answers; a specialist with a job
// description and ordered skills; the skills and apps lists.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { assertRendererBuilt, openBrowser, skipWithoutChromium } from './browser.js';
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../support/server.js';
import { startFakeModel, type FakeModel } from '../support/fake-model.js';
import { LoginPage } from './page-models/login-page.js';
import { Shell } from './page-models/shell.js';
import { ModelRoutesPage, SpecialistsPage } from './page-models/ai-pages.js';
import { pager, searchList } from './page-models/list-search.js';
import { en, zh } from './i18n.js';
import { expectAccessible } from './axe.js';
import { snap } from './screenshots.js';
import { BUILTIN_TEXTS, type ShippedKey } from '../../contract/workbench.js';
import type { Locale } from '../../contract/users.js';

const JOURNEY = 'admin-ai';
/** A built-in's unchanged text as the interface shows it, Chinese unless said otherwise. */
const builtin = (key: string, language: Locale = 'zh-CN') => BUILTIN_TEXTS[language][key as ShippedKey];
const shippedName = (key: string) => builtin(key).name;
const SECRET = 'sk-fake-secret-73519';

describe('admin sets up model routes and specialists in Chromium', { skip: skipWithoutChromium }, () => {
  let server: TestServer;
  let model: FakeModel;
  let browser: Browser;
  let page: Page;
  let pageErrors: string[] = [];
  const responses: string[] = [];

  before(async () => {
    assertRendererBuilt();
    server = await startTestServer();
    model = await startFakeModel({ chunks: ['OK'] });
    ({ browser, page, pageErrors } = await openBrowser());
    page.on('response', async (response) => {
      if (response.url().includes('/api/')) responses.push(await response.text().catch(() => ''));
    });
    await page.goto(`${server.url}/`);
    await new LoginPage(page).logIn('admin', ADMIN_PASSWORD);
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await model?.close();
  });

  test('a chat route is added; its key is masked everywhere and the connection test answers', async () => {
    await new Shell(page).open('modelRoutes');
    const routes = new ModelRoutesPage(page);
    await page.getByText(zh('ai.routes.empty')).waitFor();
    await routes.add({ name: '本机模型', baseUrl: model.baseUrl, model: 'fake-model', apiKey: SECRET });
    await routes.row('本机模型').getByText('****3519').waitFor();
    assert.ok(!(await page.content()).includes(SECRET), 'the key is not on the page');

    const status = await routes.test('本机模型');
    await status.getByText(/连接正常/).waitFor();
    assert.equal(model.requests.at(-1)!.headers.authorization, `Bearer ${SECRET}`, 'the stored key went to the model');
    await expectAccessible(page, 'the model routes page');
    await snap(page, JOURNEY, '01-route-tested');

    await routes.edit('本机模型');
    const dialog = page.getByRole('dialog', { name: zh('ai.editOf', { name: '本机模型' }) });
    await dialog.getByText(zh('ai.routes.storedKey', { key: '****3519' })).waitFor();
    assert.equal(await dialog.getByLabel(zh('ai.routes.apiKey')).inputValue(), '', 'the key field starts empty');
    await expectAccessible(page, 'the route dialog');
    await dialog.getByLabel(zh('ai.routes.model'), { exact: true }).fill('fake-model-2');
    await dialog.getByRole('button', { name: zh('common.action.save') }).click();
    await routes.row('本机模型').getByText('fake-model-2').waitFor();
    await routes.test('本机模型');
    await routes.row('本机模型').getByText(/连接正常/).waitFor();
    assert.equal(model.requests.at(-1)!.headers.authorization, `Bearer ${SECRET}`, 'saving without typing a key kept it');
    assert.equal(model.requests.at(-1)!.body.model, 'fake-model-2');
    assert.ok(!responses.some((body) => body.includes(SECRET)), 'no API answer carried the key in clear');
  });

  test('a failing endpoint is reported in words', async () => {
    model.behave({ failStatus: 401 });
    const routes = new ModelRoutesPage(page);
    const status = await routes.test('本机模型');
    await status.getByText(/HTTP 401/).waitFor();
    await snap(page, JOURNEY, '02-route-test-failed');
    model.behave({ chunks: ['OK'] });
  });

  test('a specialist is created with a job description and ordered skills', async () => {
    const skills = await server.api.get('/api/skills', { token: server.adminToken });
    const [first, second] = skills.body.data as { key: string; name: string }[];
    assert.ok(first && second, 'the product ships built-in skills');
    await new Shell(page).open('specialists');
    const specialists = new SpecialistsPage(page);
    await specialists.create({ name: '合同审查员', key: 'contract_reviewer', jobDescription: '你负责审查合同条款。', skills: [shippedName(second.key), shippedName(first.key)] });
    await specialists.row('合同审查员').getByText(`${shippedName(second.key)} → ${shippedName(first.key)}`).waitFor();
    await expectAccessible(page, 'the specialists page');
    await snap(page, JOURNEY, '03-specialists');
    const saved = await server.api.get('/api/specialists?state=all', { token: server.adminToken });
    const reviewer = saved.body.data.find((s: { key: string }) => s.key === 'contract_reviewer');
    assert.equal(reviewer.rule_file_markdown, '你负责审查合同条款。');
    assert.deepEqual(reviewer.allowed_skills, [second.key, first.key]);
  });

  test('routes and specialists are searched and paged on the server', async () => {
    for (let i = 1; i <= 20; i++) {
      const body = { name: `备用路由 ${String(i).padStart(2, '0')}`, kind: 'chat', provider: 'openai-compatible', base_url: 'http://127.0.0.1:9/v1', model: 'backup-model', priority: 200 + i };
      assert.equal((await server.api.post('/api/ai/routes', { token: server.adminToken, body })).status, 201);
    }
    await new Shell(page).open('modelRoutes');
    const routes = new ModelRoutesPage(page);
    await routes.row('备用路由 19').waitFor();
    assert.equal(await routes.rows().count(), 20, 'one page of 20, by priority');
    await pager(page).getByRole('button', { name: zh('common.list.next') }).click();
    await routes.row('备用路由 20').waitFor();
    assert.equal(await routes.rows().count(), 1);
    await routes.search('FAKE-MODEL');
    await routes.row('备用路由 20').waitFor({ state: 'detached' });
    await routes.row('本机模型').waitFor();
    assert.equal(await routes.rows().count(), 1, 'the model name is searched, from page 1');
    await routes.search('没有这个');
    await page.getByText(zh('ai.noMatch')).waitFor();
    await expectAccessible(page, 'a model route search with no match');

    await new Shell(page).open('specialists');
    const specialists = new SpecialistsPage(page);
    await specialists.search('contract_');
    await specialists.row('合同审查员').waitFor();
    await specialists.search('没有这个');
    await page.getByText(zh('ai.noMatch')).waitFor();
  });

  test('skills and apps are listed, searched on the server and can be switched off', async () => {
    const shell = new Shell(page);
    await shell.open('skills');
    const table = page.getByRole('table', { name: zh('ai.skills.title') });
    await table.getByRole('row').nth(1).waitFor();
    await expectAccessible(page, 'the skills page');
    await snap(page, JOURNEY, '04-skills');
    const skills = (await server.api.get('/api/skills', { token: server.adminToken })).body.data as { key: string; name: string }[];
    const [first, other] = skills;
    await searchList(page, zh('ai.skills.search'), first!.key);
    await table.getByRole('row').filter({ hasText: shippedName(other!.key) }).waitFor({ state: 'detached' });
    await table.getByRole('row').filter({ hasText: shippedName(first!.key) }).waitFor();
    // By part of the name the page shows (the stored name is the English one).
    const otherName = shippedName(other!.key);
    await searchList(page, zh('ai.skills.search'), otherName.slice(0, 2));
    await table.getByRole('row').filter({ hasText: otherName }).waitFor();
    await table.getByRole('row').filter({ hasText: shippedName(first!.key) }).waitFor({ state: 'detached' });
    await searchList(page, zh('ai.skills.search'), '没有这个');
    await page.getByText(zh('ai.noMatch')).waitFor();
    await shell.open('apps');
    await page.getByRole('heading', { level: 1, name: zh('ai.apps.title') }).waitFor();
    await expectAccessible(page, 'the apps page');
  });

  test('built-in skills are shown in Chinese while unchanged, and as the admin wrote them once edited', async () => {
    const skills = (await server.api.get('/api/skills', { token: server.adminToken })).body.data as { id: number; key: string; name: string; description: string }[];
    const summary = skills.find((s) => s.key === 'document_summary')!;
    assert.equal(summary.name, 'Document summary', 'the API keeps the shipped text as stored');
    await new Shell(page).open('skills');
    const table = page.getByRole('table', { name: zh('ai.skills.title') });
    const row = table.getByRole('row').filter({ hasText: 'document_summary' });
    await row.getByText(builtin('document_summary').name, { exact: true }).waitFor();
    await row.getByText(builtin('document_summary').description!).waitFor();
    assert.equal(await row.getByText(summary.description).count(), 0, 'the English description is not shown');

    const edited = await server.api.put(`/api/skills/${summary.id}`, { token: server.adminToken, body: { name: '周报摘要', description: '把本周的文件归纳成周报。' } });
    assert.equal(edited.status, 200);
    await page.reload();
    await row.getByText('周报摘要', { exact: true }).waitFor();
    await row.getByText('把本周的文件归纳成周报。').waitFor();
    assert.equal(await row.getByText(builtin('document_summary').name, { exact: true }).count(), 0);
  });

  test('the skills and specialists read in English too', async () => {
    await new Shell(page).switchTo('en');
    const shell = new Shell(page, 'en');
    await shell.open('skills');
    const skills = page.getByRole('table', { name: en('ai.skills.title') });
    await skills.getByRole('row').filter({ hasText: 'batch_extraction' }).getByText(builtin('batch_extraction', 'en').name, { exact: true }).waitFor();
    await snap(page, JOURNEY, '05-skills-en');
    await shell.open('specialists');
    await page.getByRole('table', { name: en('ai.specialists.title') }).getByText(`${builtin('contract_review', 'en').name} → ${builtin('batch_extraction', 'en').name}`).waitFor();
    await snap(page, JOURNEY, '06-specialists-en');
    await shell.switchTo('zh-CN');
  });

  test('no script errors or failed requests', () => {
    assert.deepEqual(pageErrors, []);
  });
});
