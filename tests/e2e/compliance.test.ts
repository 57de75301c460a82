// Compliance inspection in headless Chromium, in Chinese: a rep opens the coaching report of a call that promised
// principal and returns and finds the inspection beside it (each failed rule with its quote and a play button); an
// admin opens the compliance page: the failed call in the list, the pass-rate charts, the rule sets.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { assertRendererBuilt, openBrowser, skipWithoutChromium } from './browser.js';
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../support/server.js';
import { startFakeModel, type FakeModel } from '../support/fake-model.js';
import { COMPLIANT, VIOLATING, addCloudRoute, createProduct, transcribeScript } from '../api/compliance-fixtures.js';
import { LoginPage } from './page-models/login-page.js';
import { snap } from './screenshots.js';
import { zh } from './i18n.js';

const JOURNEY = 'compliance';

describe('compliance inspection in Chromium', { skip: skipWithoutChromium }, () => {
  let server: TestServer;
  let fake: FakeModel;
  let browser: Browser;
  let page: Page;
  let pageErrors: string[] = [];
  let rep: { username: string; token: string };
  let reportId: number;

  before(async () => {
    assertRendererBuilt();
    server = await startTestServer();
    fake = await startFakeModel();
    await addCloudRoute(server, fake);
    const productId = await createProduct(server, { code: 'WY-1', name: '稳盈理财', category: 'wealth', risk_level: 'R2', cooling_off_days: 15 });
    rep = await server.user('employee', { full_name: '王芳', department: '财富管理部' });
    await transcribeScript(server, fake, rep.token, COMPLIANT, '合规通话.wav');
    const violating = await transcribeScript(server, fake, rep.token, VIOLATING, '客户回访-0611.wav');
    const report = await server.api.post('/api/coaching/calls', { token: rep.token, body: { transcription_id: violating, rep_speaker: 'rep', product_id: productId } });
    assert.equal(report.status, 201, report.text);
    reportId = report.body.data.id;
    ({ browser, page, pageErrors } = await openBrowser());
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await fake?.close();
  });

  test('the rep sees the inspection beside the coaching report: each failed rule with its quote and a play button', async () => {
    await new LoginPage(page).logInAfresh(`${server.url}/`, rep.username, 'secret-pass');
    await page.goto(`${server.url}/#/coaching/reports/${reportId}`);
    const panel = page.getByRole('region', { name: zh('compliance.panel.title') });
    await panel.waitFor();
    const promise = panel.locator('[data-rule="no_guarantee"]');
    await promise.getByText('不得承诺保本保收益').waitFor();
    await promise.getByText(zh('compliance.outcome.fail')).first().waitFor();
    await promise.getByText(VIOLATING[2]!.text).waitFor();
    await promise.getByRole('button', { name: zh('coaching.player.play') }).click();
    await panel.getByText(zh('compliance.panel.practice')).waitFor();
    await panel.scrollIntoViewIfNeeded();
    await snap(page, JOURNEY, 'rep-report-inspection', { fullPage: true });
    assert.deepEqual(pageErrors, []);
  });

  test('the admin sees failed calls, pass rates by rule, department, product and month, and the rule sets', async () => {
    await new LoginPage(page).logInAfresh(`${server.url}/`, 'admin', ADMIN_PASSWORD);
    await page.goto(`${server.url}/#/admin/compliance`);
    const table = page.getByRole('table', { name: zh('compliance.admin.listTab') });
    await table.getByRole('link', { name: '客户回访-0611.wav' }).waitFor();
    assert.equal(await table.getByRole('link', { name: '合规通话.wav' }).count(), 0);
    await snap(page, JOURNEY, 'admin-failed-calls');

    await page.getByRole('tab', { name: zh('compliance.admin.chartsTab') }).click();
    for (const title of ['byRule', 'byDepartment', 'byProduct', 'byMonth']) await page.getByRole('figure', { name: zh(`compliance.admin.charts.${title}`) }).waitFor();
    await snap(page, JOURNEY, 'admin-charts', { fullPage: true });

    await page.getByRole('tab', { name: zh('compliance.admin.rulesTab') }).click();
    await page.getByText('默认销售行为规范').waitFor();
    await page.getByRole('button', { name: zh('compliance.ruleSets.edit') }).first().click();
    await page.getByLabel(zh('compliance.ruleSets.rulesLabel')).waitFor();
    await snap(page, JOURNEY, 'admin-rule-set');
    await page.keyboard.press('Escape');

    await page.goto(`${server.url}/#/admin/compliance`);
    await page.getByRole('table', { name: zh('compliance.admin.listTab') }).getByRole('link', { name: '客户回访-0611.wav' }).click();
    await page.locator('[data-rule="no_guarantee"]').getByText(VIOLATING[2]!.text).waitFor();
    await snap(page, JOURNEY, 'admin-inspection');
    assert.deepEqual(pageErrors, []);
  });
});
