// The role-play admin screens in Chromium, in Chinese: a scenario written through the form (persona, objections and
// criteria as lists, a product picked), a bad criterion key refused in the form, the scenario played by an employee,
// then the criteria's rates and the sessions by person. Needs renderer/dist and Debian's /usr/bin/chromium.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { skipWithoutChromium } from './browser.js';
import { openSignedIn } from './signed-in.js';
import { Shell } from './page-models/shell.js';
import { chooseOption, pickRadio } from './antd.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { zh } from './i18n.js';

const product = { name: '稳盈理财二号', code: 'WY-2', category: 'wealth', summary: '中低风险理财产品。' };
const scenario = {
  title: '稳盈理财二号：犹豫的客户',
  persona: { name: '张先生', profile: '企业职员，四十岁，有基金经验', risk_tolerance: 'C3' },
  opening: '你们这个稳盈理财二号怎么样？',
  objections: ['会不会亏本？', '能随时取出来吗？'],
  closing: '我再考虑考虑。',
};

describe('role-play admin screens in Chromium', { skip: skipWithoutChromium }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let productId: number;
  let employee: { username: string; token: string; id: number };

  before(async () => {
    server = await startTestServer();
    const created = await server.api.post('/api/products', { token: server.adminToken, body: product });
    assert.equal(created.status, 201, created.text);
    productId = created.body.data.id;
    employee = await server.user('employee', { full_name: '赵小红' });
    ({ browser, page } = await openSignedIn(server));
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('the admin writes a scenario through the form: lists of objections and criteria, a product', async () => {
    await new Shell(page).open('roleplayScenarios');
    await page.getByRole('heading', { name: zh('roleplay.admin.pageTitle') }).waitFor();
    await page.getByRole('button', { name: zh('roleplay.admin.new') }).click();
    const form = page.getByRole('form', { name: zh('roleplay.admin.new') });
    await form.getByLabel(zh('roleplay.admin.title'), { exact: true }).fill(scenario.title);
    await chooseOption(page, form.getByRole('combobox', { name: zh('coach.product') }), product.name, { search: true });
    await form.getByLabel(zh('roleplay.admin.personaName')).fill(scenario.persona.name);
    await form.getByLabel(zh('roleplay.admin.personaProfile')).fill(scenario.persona.profile);
    await pickRadio(form.getByRole('radiogroup', { name: zh('roleplay.admin.riskTolerance') }), 'C3');
    await form.getByLabel(zh('roleplay.admin.opening')).fill(scenario.opening);
    for (const [i, line] of scenario.objections.entries()) {
      await form.getByRole('button', { name: zh('roleplay.admin.addObjection') }).click();
      await form.getByRole('textbox', { name: zh('roleplay.admin.objection', { n: i + 1 }) }).fill(line);
    }
    await form.getByLabel(zh('roleplay.admin.closing')).fill(scenario.closing);

    const first = form.locator('.ant-card').nth(0);
    await first.getByLabel(zh('roleplay.admin.key'), { exact: true }).fill('Ask Risk');
    await first.getByLabel(zh('roleplay.admin.label'), { exact: true }).fill('询问风险承受能力');
    await first.getByLabel(zh('roleplay.admin.phrases')).fill('风险(承受|测评)\n风险等级');
    await form.getByRole('button', { name: zh('roleplay.admin.addCriterion') }).click();
    const second = form.locator('.ant-card').nth(1);
    await second.getByLabel(zh('roleplay.admin.key'), { exact: true }).fill('disclose_risk');
    await second.getByLabel(zh('roleplay.admin.label'), { exact: true }).fill('揭示风险');
    await second.getByLabel(zh('roleplay.admin.weight')).fill('2');
    await second.getByLabel(zh('roleplay.admin.ruleKey')).fill('risk_disclosure');
    await form.getByLabel(zh('roleplay.admin.passScore')).fill('50');
    await form.getByLabel(zh('roleplay.admin.maxTurns')).fill('5');

    await form.getByRole('button', { name: zh('common.action.save') }).click();
    await first.getByText(zh('roleplay.admin.validation.key')).waitFor();
    await first.getByLabel(zh('roleplay.admin.key'), { exact: true }).fill('ask_risk');
    await form.getByRole('button', { name: zh('common.action.save') }).click();
    await page.getByText(zh('roleplay.admin.saved', { title: scenario.title })).waitFor();
    await page.getByRole('table', { name: zh('roleplay.admin.pageTitle') }).getByRole('row').filter({ hasText: scenario.title }).waitFor();

    const stored = await server.api.get('/api/roleplay/scenarios', { token: server.adminToken });
    const saved = stored.body.data.find((s: { title: string }) => s.title === scenario.title);
    assert.ok(saved, stored.text);
    assert.equal(saved.product_id, productId);
    assert.deepEqual(saved.persona, scenario.persona);
    assert.equal(saved.opening, scenario.opening);
    assert.deepEqual(saved.objections, scenario.objections);
    assert.equal(saved.closing, scenario.closing);
    assert.deepEqual(saved.criteria, [
      { key: 'ask_risk', label: '询问风险承受能力', weight: 1, phrases: ['风险(承受|测评)', '风险等级'] },
      { key: 'disclose_risk', label: '揭示风险', weight: 2, rule_key: 'risk_disclosure' },
    ]);
    assert.equal(saved.pass_score, 50);
    assert.equal(saved.max_turns, 5);
    assert.equal(saved.status, 'active');
  });

  test('an employee plays it; the admin sees the criteria rates and the session by person', async () => {
    const list = await server.api.get('/api/roleplay/scenarios', { token: employee.token });
    const id = list.body.data.find((s: { title: string }) => s.title === scenario.title).id as number;
    const session = await server.api.post('/api/roleplay/sessions', { token: employee.token, body: { scenario_id: id } });
    assert.equal(session.status, 201, session.text);
    const turn = await server.api.post(`/api/roleplay/sessions/${session.body.data.id}/turns`, { token: employee.token, body: { text: '您好，请问您做过风险测评吗？' } });
    assert.equal(turn.status, 200, turn.text);
    assert.equal((await server.api.post(`/api/roleplay/sessions/${session.body.data.id}/finish`, { token: employee.token })).status, 200);

    const row = page.getByRole('table', { name: zh('roleplay.admin.pageTitle') }).getByRole('row').filter({ hasText: scenario.title });
    await row.getByRole('button', { name: `${zh('roleplay.admin.stats')} ${scenario.title}` }).click();
    const stats = page.getByTestId('roleplay-stats');
    await stats.getByText(zh('roleplay.admin.statsSummary', { finished: 1, passed: 0 })).waitFor();
    await stats.getByText('询问风险承受能力').waitFor();
    await stats.getByText(zh('roleplay.admin.rate', { met: 1, finished: 1 })).waitFor();
    await stats.getByText(zh('roleplay.admin.rate', { met: 0, finished: 1 })).waitFor();
    await page.keyboard.press('Escape');

    await new Shell(page).open('roleplaySessions');
    const sessions = page.getByRole('table', { name: zh('roleplay.admin.sessionsTitle') });
    await chooseOption(page, page.getByRole('combobox', { name: zh('roleplay.admin.person') }), '赵小红', { search: true });
    const mine = sessions.getByRole('row').filter({ hasText: '赵小红' });
    await mine.filter({ hasText: scenario.title }).waitFor();
    await mine.getByRole('button', { name: zh('roleplay.admin.view') }).click();
    await page.getByRole('dialog').getByText('“您好，请问您做过风险测评吗？”').waitFor();
  });
});
