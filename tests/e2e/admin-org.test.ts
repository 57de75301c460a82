// An admin builds the organisation in Chromium against the real server: a department (created, renamed), a
// position with a mandatory knowledge item and an optional product, and a user placed in both; the trainee's
// mandatory knowledge follows from it. At 1366×768 the signed-in user and sign-out stay in view.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { skipWithoutChromium } from './browser.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { Shell } from './page-models/shell.js';
import { UsersPage } from './page-models/users-page.js';
import { DepartmentsPage, PositionsPage } from './page-models/org-pages.js';
import { zh } from './i18n.js';
import { chooseOption } from './antd.js';
import { expectAccessible } from './axe.js';
import { snap } from './screenshots.js';
import { openSignedIn } from './signed-in.js';

const JOURNEY = 'admin-org';

describe('admin builds departments, positions and users in Chromium', { skip: skipWithoutChromium }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let pageErrors: string[] = [];
  const product = { name: '稳健理财一号', code: 'WJ-1', category: 'wealth', summary: '低风险理财产品。' };

  before(async () => {
    server = await startTestServer();
    assert.equal((await server.api.post('/api/products', { token: server.adminToken, body: product })).status, 201);
    ({ browser, page, pageErrors } = await openSignedIn(server));
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('at 1366×768 the whole navigation is grouped and the user and sign-out stay in view', async () => {
    const shell = new Shell(page);
    await shell.open('positions');
    for (const section of ['people', 'content', 'exams', 'system']) await shell.nav.getByText(zh(`shell.sections.${section}`), { exact: true }).waitFor();
    // Scroll the page and the sidebar (which scrolls on its own) to their ends: the header stays.
    await page.mouse.wheel(0, 2000);
    await shell.nav.hover();
    await page.mouse.wheel(0, 2000);
    await snap(page, JOURNEY, '00-navigation-1366x768');
    for (const target of [shell.signedInUser, page.getByRole('button', { name: zh('shell.header.logout') })]) {
      const box = await target.boundingBox();
      // (a flex box of the 56 px header may start half a pixel above it)
      assert.ok(box && box.y >= -1 && box.y + box.height <= 768 && box.x + box.width <= 1366, `in the 1366×768 viewport: ${JSON.stringify(box)}`);
      assert.ok(await target.isVisible());
    }
    await shell.navItem('config').scrollIntoViewIfNeeded();
    assert.ok(await shell.navItem('config').isVisible(), 'the last item of the long admin menu can be reached');
  });

  test('a department is created and renamed', async () => {
    await new Shell(page).open('departments');
    const departments = new DepartmentsPage(page);
    await departments.create('华东销售部', '上海、杭州、南京');
    await departments.row('华东销售部').waitFor();
    await departments.rename('华东销售部', '华东区销售部');
    await departments.row('华东区销售部').getByText('上海、杭州、南京').waitFor();
    await expectAccessible(page, 'the departments page');
    await snap(page, JOURNEY, '01-departments');
  });

  test('a position gets a mandatory knowledge item and an optional product', async () => {
    await new Shell(page).open('positions');
    const positions = new PositionsPage(page);
    await positions.create('客户经理', '负责高净值客户');
    await positions.addKnowledge({ title: '反洗钱制度要点' });
    await positions.addKnowledge({ kind: 'product', pick: product.name, mandatory: false });
    await positions.knowledgeRow('反洗钱制度要点').getByText(zh('org.knowledge.required')).waitFor();
    await positions.knowledgeRow(product.name).getByText(zh('org.knowledge.optional')).waitFor();
    await expectAccessible(page, 'a position with its knowledge');
    await snap(page, JOURNEY, '02-position-knowledge');
    await page.getByRole('link', { name: zh('org.positions.title') }).click();
    await positions.row('客户经理').getByText(zh('org.positions.knowledgeCount', { count: 2, mandatory: 1 })).waitFor();
  });

  test('a user is created in the department and the position, and their mandatory knowledge follows', async () => {
    await new Shell(page).open('users');
    const users = new UsersPage(page);
    await users.create({ username: 'li_na', fullName: '李娜', password: 'secret-pass', department: '华东区销售部', position: '客户经理' });
    await page.getByText(zh('admin.users.created', { name: 'li_na' })).waitFor();
    await users.row('li_na').getByText('华东区销售部').waitFor();
    await users.row('li_na').getByText('客户经理').waitFor();
    await expectAccessible(page, 'the users page');
    await snap(page, JOURNEY, '03-user-in-department-and-position');

    const list = await server.api.get('/api/system/users?q=li_na', { token: server.adminToken });
    const [user] = list.body.data;
    const departments = await server.api.get('/api/system/departments', { token: server.adminToken });
    const positions = await server.api.get('/api/system/positions', { token: server.adminToken });
    assert.equal(user.department_id, departments.body.data[0].id);
    assert.equal(user.position_id, positions.body.data[0].id);
    assert.deepEqual(
      positions.body.data[0].knowledge.map((k: { title: string; kind: string; is_mandatory: boolean }) => [k.title, k.kind, k.is_mandatory]),
      [['反洗钱制度要点', 'text', true], [`${product.name} (${product.code})`, 'product', false]],
    );
  });

  test('closing a dialog with unsaved input asks first; an untouched one closes at once', async () => {
    await new Shell(page).open('departments');
    const title = zh('org.departments.new');
    const dialog = page.getByRole('dialog', { name: title });
    const discard = page.getByRole('dialog', { name: zh('common.discard.title') });
    await page.getByRole('button', { name: title }).click();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await discard.count(), 0, 'nothing entered: no question');

    await page.getByRole('button', { name: title }).click();
    await dialog.getByLabel(zh('org.departments.name')).fill('华南销售部');
    await page.keyboard.press('Escape');
    await discard.waitFor();
    await expectAccessible(page, 'the discard question');
    await snap(page, JOURNEY, '04-discard-unsaved-zh');
    await discard.getByRole('button', { name: zh('common.discard.keep') }).click();
    await discard.waitFor({ state: 'detached' });
    assert.equal(await dialog.getByLabel(zh('org.departments.name')).inputValue(), '华南销售部', 'kept editing');
    await dialog.getByRole('button', { name: zh('common.action.cancel'), exact: true }).click();
    await discard.getByRole('button', { name: zh('common.discard.ok') }).click();
    await dialog.waitFor({ state: 'detached' });
    const departments = await server.api.get('/api/system/departments?q=华南', { token: server.adminToken });
    assert.equal(departments.body.data.length, 0, 'nothing was saved');
  });

  test('changing a role in the users table asks first; cancelling keeps the role', async () => {
    await new Shell(page).open('users');
    const users = new UsersPage(page);
    const role = users.row('li_na').getByLabel(zh('admin.users.roleOf', { name: 'li_na' }));
    const roleOf = async () => (await server.api.get('/api/system/users?q=li_na', { token: server.adminToken })).body.data[0].role as string;
    const question = page.getByRole('dialog', { name: zh('integrity.roleChange.title', { name: '李娜' }) });
    await chooseOption(page, role, zh('shell.roles.admin'));
    await question.getByText(zh('integrity.roleChange.text', { from: zh('shell.roles.employee'), to: zh('shell.roles.admin') })).waitFor();
    await snap(page, JOURNEY, '05-role-change-asks-zh');
    await question.getByRole('button', { name: zh('common.action.cancel'), exact: true }).click();
    await question.waitFor({ state: 'detached' });
    assert.equal(await roleOf(), 'employee');
    await users.row('li_na').getByText(zh('shell.roles.employee'), { exact: true }).filter({ visible: true }).waitFor();

    await chooseOption(page, role, zh('shell.roles.admin'));
    await question.getByRole('button', { name: zh('integrity.roleChange.ok') }).click();
    await users.row('li_na').getByText(zh('shell.roles.admin'), { exact: true }).filter({ visible: true }).waitFor();
    assert.equal(await roleOf(), 'admin');
  });

  test('a department that still has people is not deleted: the error shows above the table, which stays whole', async () => {
    await new Shell(page).open('departments');
    const departments = new DepartmentsPage(page);
    const row = departments.row('华东区销售部');
    await row.getByRole('button', { name: zh('org.deleteOf', { name: '华东区销售部' }) }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: zh('org.delete'), exact: true }).click();
    const alert = page.getByRole('alert').filter({ hasText: zh('errors.conflict') });
    await alert.waitFor();
    // Above the table, not inside the row: the row keeps its cells and buttons.
    const [alertBox, tableBox] = await Promise.all([alert.boundingBox(), page.getByRole('table', { name: zh('org.departments.title') }).boundingBox()]);
    assert.ok(alertBox && tableBox && alertBox.y + alertBox.height <= tableBox.y, 'the error is above the table');
    assert.equal(await row.getByRole('alert').count(), 0);
    await row.getByText('上海、杭州、南京').waitFor();
    await row.getByRole('button', { name: zh('org.departments.renameOf', { name: '华东区销售部' }) }).waitFor();
    await expectAccessible(page, 'a refused department delete');
    await snap(page, JOURNEY, '06-department-delete-refused-zh');
  });

  test('no script errors or failed requests', () => {
    // The refused department delete is the one expected failure.
    assert.deepEqual(pageErrors.filter((e) => !/^409 \/api\/system\/departments\/\d+$|status of 409/.test(e)), []);
  });
});
