// Assignments in Chinese, in headless Chromium against the real server: an admin assigns a formal exam to a
// department with the form and follows its progress; the trainee sees 待完成任务 on the home page, the overdue one
// in red; an admin opens a trainee's record from 考试记录 and sees whose it is. Needs renderer/dist and Chromium.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { assertRendererBuilt, openBrowser, skipWithoutChromium } from './browser.js';
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../support/server.js';
import { TestClock } from '../support/test-clock.js';
import { LoginPage } from './page-models/login-page.js';
import { Shell } from './page-models/shell.js';
import { chooseOption } from './antd.js';
import { snap } from './screenshots.js';
import { en, zh } from './i18n.js';

const JOURNEY = 'assignments';
const DAY = 24 * 3600_000;

describe('assignments in Chromium (zh-CN)', { skip: skipWithoutChromium }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let clock: TestClock;
  const suffix = crypto.randomBytes(3).toString('hex');
  const deptName = `财富管理部-${suffix}`;
  const examName = `第三季度合规考试 ${suffix}`;
  const overdueTitle = `反洗钱培训考试 ${suffix}`;
  let trainee: { id: number; username: string; token: string };
  let passer: { id: number; username: string; token: string };

  const logInAs = (username: string, password: string) => new LoginPage(page).logInAfresh(`${server.url}/`, username, password);

  before(async () => {
    assertRendererBuilt();
    clock = TestClock.start(Date.now());
    server = await startTestServer();
    const admin = { token: server.adminToken };
    const dept = await server.api.post('/api/system/departments', { ...admin, body: { name: deptName } });
    assert.equal(dept.status, 201, dept.text);
    trainee = await server.user('employee', { full_name: '张晓梅', department_id: dept.body.data.id });
    passer = await server.user('employee', { full_name: '李建国', department_id: dept.body.data.id });
    const domain = `compliance-${suffix}`;
    const ids: number[] = [];
    for (const stem of [`客户风险评估每年至少一次（${suffix}）`, `可以向客户承诺保本收益（${suffix}）`]) {
      const q = await server.api.post('/api/exam/questions', { ...admin, body: { domain, type: 'true_false', stem, answer: [ids.length ? 'false' : 'true'], explanation: '见合规手册。' } });
      assert.equal(q.status, 201, q.text);
      ids.push(q.body.data.id);
    }
    const paper = await server.api.post('/api/exam/papers', { ...admin, body: { name: examName, type: 'formal', domain, question_count: 2, total_score: 100, pass_score: 60, duration_minutes: 10 } });
    assert.equal(paper.status, 201, paper.text);
    const other = await server.api.post('/api/exam/papers', { ...admin, body: { name: overdueTitle, type: 'formal', domain, question_count: 2, total_score: 100, pass_score: 60, duration_minutes: 10 } });
    assert.equal(other.status, 201, other.text);
    // 李建国 passes the exam before it is assigned; an older assignment of the other paper is overdue for both.
    const started = await server.api.post('/api/exam/start', { token: passer.token, body: { paper_id: paper.body.data.id } });
    const submitted = await server.api.post('/api/exam/submit', { token: passer.token, body: { session_id: started.body.data.session_id, answers: { [ids[0]!]: 'true', [ids[1]!]: 'false' } } });
    assert.equal(submitted.body.data.passed, true);
    const overdue = await server.api.post('/api/assignments', {
      ...admin,
      body: { item: { type: 'exam', id: other.body.data.id }, target: { user_ids: [trainee.id] }, due_at: new Date(clock.ms + DAY).toISOString(), title: overdueTitle },
    });
    assert.equal(overdue.status, 201, overdue.text);
    clock.advance(2 * DAY);
    ({ browser, page } = await openBrowser({ acceptDownloads: true }));
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    clock?.stop();
  });

  test('an admin assigns the exam to a department by name and follows its progress', async () => {
    await logInAs('admin', ADMIN_PASSWORD);
    // The admin's home is about running the training.
    await page.getByRole('region', { name: zh('assignments.adminHome.assignments') }).getByText(overdueTitle).waitFor();
    await page.getByRole('region', { name: zh('assignments.adminHome.setup') }).getByText(zh('assignments.adminHome.noChatRoute')).waitFor();
    await page.getByRole('region', { name: zh('assignments.adminHome.reviews') }).waitFor();
    await snap(page, JOURNEY, '01-admin-home');
    await new Shell(page).switchTo('en');
    await page.getByRole('region', { name: en('assignments.adminHome.setup') }).getByText(en('assignments.adminHome.noChatRoute')).waitFor();
    await snap(page, JOURNEY, '01-admin-home-en');
    await new Shell(page, 'en').switchTo('zh-CN');
    await page.getByRole('region', { name: zh('assignments.adminHome.setup') }).waitFor();

    await new Shell(page).nav.getByRole('menuitem', { name: zh('assignments.nav'), exact: true }).click();
    await page.getByRole('button', { name: zh('assignments.new') }).click();
    const form = page.getByRole('form', { name: zh('assignments.form.title') });
    await chooseOption(page, form.getByLabel(zh('assignments.form.paper')), examName, { search: true });
    await chooseOption(page, form.getByLabel(zh('assignments.form.departments')), deptName, { search: true });
    await form.getByLabel(zh('assignments.form.name')).fill(`${examName}（财富管理部）`);
    await snap(page, JOURNEY, '02-create-form');
    await form.getByRole('button', { name: zh('assignments.form.submit') }).click();

    await page.getByRole('heading', { level: 1, name: `${examName}（财富管理部）` }).waitFor();
    const people = page.getByRole('table', { name: zh('assignments.people.title') });
    await people.getByRole('row').filter({ hasText: '李建国' }).getByText(zh('assignments.status.done')).waitFor();
    await people.getByRole('row').filter({ hasText: '张晓梅' }).getByText(zh('assignments.status.pending')).waitFor();
    await snap(page, JOURNEY, '03-admin-progress', { fullPage: true });

    await page.getByRole('radiogroup', { name: zh('assignments.people.status') }).locator('label').filter({ hasText: new RegExp(`^${zh('assignments.status.done')}$`) }).click();
    await people.getByRole('row').filter({ hasText: '张晓梅' }).waitFor({ state: 'detached' });
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: zh('assignments.export') }).click()]);
    assert.match(download.suggestedFilename(), /^学习任务\d+-完成情况-\d{4}-\d{2}-\d{2}\.xlsx$/);

    await page.getByRole('button', { name: zh('assignments.remind') }).click();
    await page.getByRole('tooltip').getByRole('button', { name: zh('assignments.remind') }).click();
    await page.getByText(zh('assignments.reminded', { count: 1 })).waitFor();
  });

  test('the trainee sees 待完成任务 with due dates, the overdue one in red and first', async () => {
    await logInAs(trainee.username, 'secret-pass');
    const tasks = page.getByRole('region', { name: zh('assignments.mine.title') });
    const rows = tasks.getByRole('listitem');
    await rows.first().getByText(overdueTitle).waitFor();
    await rows.first().locator('.due-overdue').getByText(zh('assignments.status.overdue'), { exact: false }).waitFor();
    await rows.nth(1).getByText(`${examName}（财富管理部）`).waitFor();
    assert.equal(await rows.nth(1).locator('.due-overdue').count(), 0);
    await snap(page, JOURNEY, '04-trainee-tasks');
  });

  test('an admin opening a trainee record from 考试记录 sees whose it is and the way back', async () => {
    await logInAs('admin', ADMIN_PASSWORD);
    await new Shell(page).open('examRecords');
    await page.getByRole('row').filter({ hasText: '李建国' }).getByRole('link', { name: examName }).click();
    await page.getByRole('heading', { level: 1, name: zh('assignments.record.title', { name: '李建国', exam: examName }) }).waitFor();
    await page.getByText(deptName).first().waitFor();
    await page.getByText(zh('assignments.record.answerOf', { name: '李建国', answer: zh('exams.trueFalse.true') })).first().waitFor();
    assert.equal(await page.getByText(zh('records.back'), { exact: true }).count(), 0);
    await snap(page, JOURNEY, '05-admin-reads-trainee-record', { fullPage: true });
    await page.getByRole('link', { name: zh('shell.nav.examRecords') }).first().click();
    await page.getByRole('heading', { level: 1, name: zh('records.everyone.title') }).waitFor();
  });
});
