// The content admin screens in Chromium against the real server: products (create, edit, take off sale, import
// from Excel with a dry run that shows a bad row), courses with their products, the company introduction.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { skipWithoutChromium } from './browser.js';
import { openSignedIn } from './signed-in.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { Shell } from './page-models/shell.js';
import { ProductAdminPage } from './page-models/product-admin-page.js';
import { CourseAdminPage } from './page-models/course-admin-page.js';
import { expectAccessible } from './axe.js';
import { snap } from './screenshots.js';
import { zh } from './i18n.js';

const JOURNEY = 'admin-products';

/** An .xlsx with Chinese headers, as an admin would export it from their own sheet. */
async function workbook(rows: (string | number)[][]): Promise<Buffer> {
  const { default: Excel } = await import('exceljs');
  const book = new Excel.Workbook();
  const sheet = book.addWorksheet('产品');
  sheet.addRow(['产品编码', '产品名称', '类别', '风险等级', '佣金比例', '期限']);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
}

describe('content admin screens in Chromium', { skip: skipWithoutChromium }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let pageErrors: string[] = [];
  const suffix = crypto.randomBytes(3).toString('hex');
  const fund = `稳健增长基金 ${suffix}`;

  before(async () => {
    server = await startTestServer();
    ({ browser, page, pageErrors } = await openSignedIn(server));
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('an admin creates, edits and takes a product off sale', async () => {
    await new Shell(page).open('productAdmin');
    const products = new ProductAdminPage(page);
    await page.getByText(zh('content.products.empty')).waitFor();
    await products.create({ name: fund, code: `F-${suffix}`, category: '基金', commission: 'abc' });
    await page.getByText(zh('content.validation.percent')).waitFor();
    await products.fill(zh('content.products.new'), { commission: '1.5' });
    await page.getByText(zh('content.products.created', { name: fund })).waitFor();
    await products.row(fund).getByRole('cell', { name: '基金', exact: true }).waitFor();

    await products.row(fund).getByRole('button', { name: `${zh('content.edit')} ${fund}` }).click();
    await products.fill(zh('content.products.edit', { name: fund }), { category: '公募基金' });
    await products.row(fund).getByRole('cell', { name: '公募基金', exact: true }).waitFor();
    await expectAccessible(page, 'product admin');
    await snap(page, JOURNEY, '01-products-zh');

    await products.deactivate(fund);
    await products.row(fund).getByText(zh('content.products.status.inactive')).waitFor();
    const stored = await server.api.get(`/api/products?status=all&q=${encodeURIComponent(suffix)}`, { token: server.adminToken });
    assert.equal(stored.body.data[0].status, 'inactive');
    assert.equal(stored.body.data[0].commission_rate, 1.5);
    await products.row(fund).getByRole('button', { name: `${zh('content.products.reactivate')} ${fund}` }).click();
    await products.row(fund).getByText(zh('content.products.status.active')).waitFor();
  });

  test('an admin imports products from Excel: the dry run shows the bad row, the fixed file imports', async () => {
    const products = new ProductAdminPage(page);
    const good = [`B-${suffix}`, `安心债券 ${suffix}`, '债券', 'R2', 0.8, '3年'];
    const bad = [`C-${suffix}`, `进取股票 ${suffix}`, '股票', 'R4', '百分之五', '5年'];
    const report = await products.check({ name: 'products.xlsx', buffer: await workbook([good, bad]) });
    await report.getByText(zh('content.import.invalid', { count: 1 })).waitFor();
    const errorRow = products.errorRows().filter({ hasText: 'commission_rate' });
    await errorRow.getByRole('cell', { name: '3', exact: true }).waitFor();
    await errorRow.getByText(zh('content.import.problems.invalid_type_number')).waitFor();
    await expectAccessible(page, 'the import dry run');
    await snap(page, JOURNEY, '02-import-dry-run-error');
    assert.equal(await report.getByRole('button', { name: zh('content.import.run', { count: 1 }) }).isDisabled(), true);
    const none = await server.api.get(`/api/products?status=all&q=${encodeURIComponent(`B-${suffix}`)}`, { token: server.adminToken });
    assert.deepEqual(none.body.data, [], 'the dry run wrote nothing');

    const fixed = await products.check({ name: 'products-fixed.xlsx', buffer: await workbook([good, [...bad.slice(0, 4), 5, '5年']]) });
    await fixed.getByText(zh('content.import.ready', { count: 2 })).waitFor();
    await snap(page, JOURNEY, '03-import-dry-run-ok');
    await fixed.getByRole('button', { name: zh('content.import.run', { count: 2 }) }).click();
    await page.getByText(zh('content.import.done', { created: 2, updated: 0 })).waitFor();
    await products.search(suffix);
    await products.row(`进取股票 ${suffix}`).getByText('R4').waitFor();
    await products.row(`安心债券 ${suffix}`).waitFor();
    const imported = await server.api.get(`/api/products?q=${encodeURIComponent(`C-${suffix}`)}`, { token: server.adminToken });
    assert.equal(imported.body.data[0].commission_rate, 5);
    assert.deepEqual(imported.body.data[0].attributes, { 期限: '5年' });
  });

  test('an admin creates a course, binds products and unbinds one; an off-sale product stays bound, marked', async () => {
    const course = `合规销售入门 ${suffix}`;
    const offSale = await server.api.post('/api/products', { token: server.adminToken, body: { name: `旧产品 ${suffix}` } });
    await server.api.delete(`/api/products/${offSale.body.data.id}`, { token: server.adminToken });

    await new Shell(page).open('courseAdmin');
    const courses = new CourseAdminPage(page);
    await courses.create({ title: course, category: '合规', duration: '30', content: '# 第一课\n\n- 了解客户\n- 如实告知风险' });
    await page.getByRole('heading', { level: 1, name: course }).waitFor();
    await courses.bind(fund);
    await courses.boundRow(fund).getByText(zh('content.products.status.active')).waitFor();
    const id = Number(/\/admin\/courses\/(\d+)/.exec(page.url())![1]);
    const put = await server.api.put(`/api/courses/${id}`, { token: server.adminToken, body: { bind_product_ids: [offSale.body.data.id] } });
    assert.equal(put.status, 200, put.text);
    await page.reload();
    await courses.boundRow(`旧产品 ${suffix}`).getByText(zh('content.courses.hiddenInactive')).waitFor();
    await expectAccessible(page, 'the course editor');
    await snap(page, 'admin-courses', '01-course-editor-zh', { fullPage: true });

    await courses.unbind(fund);
    await courses.boundRow(fund).waitFor({ state: 'detached' });
    const seen = await server.api.get(`/api/courses/${id}`, { token: server.adminToken });
    assert.deepEqual(seen.body.data.product_ids, [], 'employees see no off-sale product');
    const whole = await server.api.get(`/api/courses/${id}?include_inactive=true`, { token: server.adminToken });
    assert.deepEqual(whole.body.data.product_ids, [offSale.body.data.id]);

    await page.getByRole('link', { name: zh('content.courses.title') }).click();
    await courses.row(course).getByText(zh('content.courses.productCount', { count: 1 })).waitFor();
    await expectAccessible(page, 'course admin list');
  });

  test('an admin writes the company introduction with a live preview; employees get the new text', async () => {
    await new Shell(page).open('companyIntro');
    const editor = page.getByRole('form', { name: zh('content.company.editor') });
    const text = `# 关于我们 ${suffix}\n\n我们成立于 2004 年。\n\n- 客户至上\n- 诚信合规`;
    await editor.getByLabel(zh('content.company.editor')).fill(text);
    const preview = page.getByRole('region', { name: zh('content.company.preview') });
    await preview.getByRole('heading', { name: `关于我们 ${suffix}` }).waitFor();
    await preview.getByRole('listitem').filter({ hasText: '诚信合规' }).waitFor();
    await editor.getByRole('button', { name: zh('common.action.save') }).click();
    await page.getByText(zh('content.company.saved')).waitFor();
    await expectAccessible(page, 'the company introduction editor');
    await snap(page, 'admin-company', '01-company-editor-zh');
    const employee = await server.user('employee');
    const seen = await server.api.get('/api/company-train', { token: employee.token });
    assert.equal(seen.body.data.content, text);
  });

  test('no script errors or failed requests', () => {
    assert.deepEqual(pageErrors, []);
  });
});
