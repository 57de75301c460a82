// Journey: an admin reviews everyone's exam records with filters, sees the charts (pass rate per paper and per
// department, score distribution, trend) and exports the filtered records to Excel. Chromium, real server.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { skipWithoutChromium } from './browser.js';
import { openSignedIn } from './signed-in.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { Shell } from './page-models/shell.js';
import { AdminRecordsPage } from './page-models/admin-records-page.js';
import { addPaper, addQuestions, answerSheet, start, submit, uniqueDomain } from '../api/exams-fixtures.js';
import { expectAccessible } from './axe.js';
import { snap } from './screenshots.js';
import { zh } from './i18n.js';

const JOURNEY = 'admin-exam-charts';

describe('an admin reviews exam records with charts and exports them', { skip: skipWithoutChromium }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let pageErrors: string[] = [];
  const suffix = crypto.randomBytes(3).toString('hex');
  const shanghai = `上海分行 ${suffix}`;
  const beijing = `北京分行 ${suffix}`;
  const compliance = `合规考试 ${suffix}`;
  const products = `产品知识 ${suffix}`;
  const people: Record<string, { username: string; token: string }> = {};

  before(async () => {
    server = await startTestServer();
    for (const name of [shanghai, beijing]) assert.equal((await server.api.post('/api/system/departments', { token: server.adminToken, body: { name } })).status, 201);
    const domain = uniqueDomain('charts');
    const bank = await addQuestions(server, domain, 4);
    const papers = { compliance: await addPaper(server, { name: compliance, domain, question_count: 4 }), products: await addPaper(server, { name: products, domain, question_count: 4 }) };
    // Scores out of 4 questions: Shanghai passes both papers, Beijing fails one of them.
    const plan: [string, string, keyof typeof papers, number][] = [
      ['王芳', shanghai, 'compliance', 4],
      ['张伟', shanghai, 'products', 3],
      ['刘洋', beijing, 'compliance', 1],
      ['陈静', beijing, 'products', 4],
    ];
    for (const [name, department, paper, right] of plan) {
      const user = (people[name] ??= await server.user('employee', { full_name: name, department }));
      const session = await start(server, user.token, papers[paper].id);
      const rightIds = new Set(session.questions.slice(0, right).map((q) => q.id));
      await submit(server, user.token, session.session_id, answerSheet(session.questions, bank, (id) => rightIds.has(id)));
    }
    ({ browser, page, pageErrors } = await openSignedIn(server, { acceptDownloads: true }));
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('the records list filters by department', async () => {
    await new Shell(page).open('examRecords');
    const records = new AdminRecordsPage(page);
    await records.table().getByRole('row').filter({ hasText: '王芳' }).waitFor();
    await records.filterDepartment(beijing);
    await records.table().getByRole('row').filter({ hasText: '刘洋' }).waitFor();
    await records.table().getByRole('row').filter({ hasText: '王芳' }).waitFor({ state: 'detached' });
    assert.equal(await records.table().getByRole('row').filter({ hasText: beijing }).count(), 2);
    await expectAccessible(page, 'exam records with filters');
    await snap(page, JOURNEY, '01-records-filtered');
  });

  test('the charts show pass rates per paper and department, the distribution and the trend', async () => {
    const records = new AdminRecordsPage(page);
    const charts = await records.showCharts();
    // Still filtered to Beijing: 2 attempts, 1 passed.
    await charts.getByText(zh('examStats.records')).first().waitFor();
    for (const title of ['byPaper', 'byDepartment', 'distribution', 'trend']) {
      const chart = charts.getByRole('figure', { name: zh(`examStats.${title}`) });
      await chart.getByRole('img').locator('svg').waitFor();
    }
    /** What a screen reader hears of a chart: echarts' description of its data. */
    const described = async (title: string) => (await charts.getByRole('figure', { name: zh(`examStats.${title}`) }).getByRole('img').first().getAttribute('aria-label')) ?? '';
    assert.match(await described('byPaper'), new RegExp(`${products}：100%`));
    assert.match(await described('byPaper'), new RegExp(`${compliance}：0%`));
    await charts.getByText('50%').first().waitFor();
    await expectAccessible(page, 'exam charts');
    await snap(page, JOURNEY, '02-charts-beijing', { fullPage: true });

    await records.filterDepartment(zh('common.filter.all'));
    await charts.getByText('75%').first().waitFor();
    assert.match(await described('byDepartment'), new RegExp(`${shanghai}：100%`));
    assert.match(await described('byDepartment'), new RegExp(`${beijing}：50%`));
    await records.trendBy('byMonth');
    await charts.getByRole('figure', { name: zh('examStats.trend') }).getByText(/^\d{4}-\d{2}$/).first().waitFor();
    assert.match(await described('distribution'), /90–100%：2/);
    await snap(page, JOURNEY, '03-charts-everyone', { fullPage: true });
  });

  test('the filtered records export to an Excel file that opens', async () => {
    const records = new AdminRecordsPage(page);
    await records.filterDepartment(shanghai);
    const [download] = await Promise.all([page.waitForEvent('download'), records.exportButton().click()]);
    assert.match(download.suggestedFilename(), /^考试记录-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const { default: Excel } = await import('exceljs');
    const book = new Excel.Workbook();
    await book.xlsx.readFile((await download.path())!);
    const sheet = book.worksheets[0]!;
    assert.equal(sheet.name, '考试记录');
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    assert.deepEqual(rows[0]!.slice(0, 4), ['姓名', '用户名', '部门', '考试']);
    assert.deepEqual(rows.slice(1).map((r) => [r[0], r[2], r[3], r[4], r[7]]).sort(), [
      ['张伟', shanghai, products, 75, '通过'],
      ['王芳', shanghai, compliance, 100, '通过'],
    ]);
  });

  test('no script errors or failed requests', () => {
    assert.deepEqual(pageErrors, []);
  });
});
