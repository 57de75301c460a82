// Journey: an admin builds a question bank and a paper in the app and publishes it; the employee is notified,
// takes the exam in Chinese, sees the result and downloads the certificate. Chromium against the real server.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { skipWithoutChromium } from './browser.js';
import { openSignedIn } from './signed-in.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { LoginPage } from './page-models/login-page.js';
import { Shell } from './page-models/shell.js';
import { ExamPage } from './page-models/exam-page.js';
import { QuestionBankPage } from './page-models/question-bank-page.js';
import { PapersPage } from './page-models/papers-page.js';
import { expectAccessible } from './axe.js';
import { snap } from './screenshots.js';
import { zh } from './i18n.js';

const JOURNEY = 'admin-publishes-exam';

describe('an admin publishes an exam built in the app; the employee takes it', { skip: skipWithoutChromium }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let pageErrors: string[] = [];
  let employee: { username: string; token: string };
  const suffix = crypto.randomBytes(3).toString('hex');
  const domain = `公司-${suffix}`;
  const examName = `公司基础知识 ${suffix}`;
  const single = { type: 'single' as const, domain, stem: `公司成立于哪一年？（${suffix}）`, options: ['1998 年', '2004 年', '2010 年'], answer: ['B'], explanation: '公司于 2004 年在上海成立。' };
  const multiple = { type: 'multiple' as const, domain, stem: `哪些是公司的核心价值观？（${suffix}）`, options: ['客户至上', '短期收益', '诚信合规', '夸大宣传'], answer: ['A', 'C'] };
  const trueFalse = { type: 'true_false' as const, domain, stem: `理财顾问可以向客户承诺收益。（${suffix}）`, answer: false, explanation: '任何情况下都不能承诺收益。' };
  const retired = { type: 'true_false' as const, domain, stem: `旧制度仍然有效。（${suffix}）`, answer: true };

  before(async () => {
    server = await startTestServer();
    employee = await server.user('employee', { full_name: '李雷' });
    ({ browser, page, pageErrors } = await openSignedIn(server, { acceptDownloads: true }));
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('the admin builds a question bank of every type, previews a question and disables one', async () => {
    await new Shell(page).open('questionBank');
    const bank = new QuestionBankPage(page);
    await page.getByText(zh('bank.questions.empty')).waitFor();
    for (const q of [single, multiple, trueFalse, retired]) await bank.create(q);
    await bank.row(single.stem).getByText('B. 2004 年').waitFor();
    await bank.row(multiple.stem).getByText('A. 客户至上; C. 诚信合规').waitFor();
    await bank.row(trueFalse.stem).getByRole('cell', { name: zh('exams.trueFalse.false'), exact: true }).waitFor();
    await bank.disable(retired.stem);
    await bank.row(retired.stem).getByText(zh('bank.questions.status.disabled')).waitFor();
    await expectAccessible(page, 'the question bank');
    await snap(page, JOURNEY, '01-question-bank');

    const preview = await bank.preview(single.stem);
    const asked = preview.getByRole('group', { name: single.stem });
    await asked.getByLabel('B. 2004 年').check();
    await preview.getByRole('button', { name: zh('bank.preview.reveal') }).click();
    await preview.getByText(zh('bank.preview.answer', { answer: 'B. 2004 年' })).waitFor();
    await preview.getByText(single.explanation).waitFor();
    await expectAccessible(page, 'the question preview');
    await snap(page, JOURNEY, '02-question-preview');
    await preview.getByRole('button', { name: zh('bank.preview.close') }).first().click();
  });

  test('the admin builds a formal paper on the domain and publishes it; employees are notified', async () => {
    await new Shell(page).open('papers');
    const papers = new PapersPage(page);
    await papers.fillNew({ name: examName, domain, domainQuestions: 3, questions: 5, pass: 60, minutes: 15 });
    const form = papers.dialog();
    await form.getByText(zh('bank.papers.fewerQuestions', { count: 3 })).waitFor();
    await form.getByLabel(zh('bank.papers.questionCount')).fill('3');
    await form.getByText(zh('bank.papers.notifies')).waitFor();
    await expectAccessible(page, 'the paper dialog');
    await snap(page, JOURNEY, '03-paper-dialog');
    await form.getByRole('button', { name: zh('bank.papers.saveAndPublish') }).click();
    await page.getByText(zh('bank.papers.published', { name: examName })).waitFor();
    await papers.row(examName).getByText(zh('bank.papers.questionsOf', { count: 3, available: 3 })).waitFor();
    await expectAccessible(page, 'the paper list');
    await snap(page, JOURNEY, '04-papers');

    const told = await server.api.get('/api/notifications', { token: employee.token });
    const notice = told.body.data.find((n: { type: string; link: string }) => n.type === 'exam_published');
    assert.ok(notice, 'the employee was notified');
    assert.match(notice.link, /^\/exams\/\d+$/);
  });

  test('the employee opens the notification, takes the exam in Chinese, passes and downloads the certificate', async () => {
    const shell = new Shell(page);
    await shell.logOut();
    await new LoginPage(page).logIn(employee.username, 'secret-pass');
    assert.equal(await shell.unreadCount(), 1);
    await shell.bell.click();
    const item = page.getByRole('listitem').filter({ hasText: examName });
    await item.getByRole('button', { name: zh('common.action.open') }).click();
    await page.getByRole('heading', { level: 1, name: examName }).waitFor();
    await page.getByRole('button', { name: zh('exams.cover.startExam', { count: 3 }) }).click();
    await page.getByRole('timer', { name: zh('exams.session.timeLeft') }).waitFor();
    await page.getByRole('group', { name: single.stem }).getByLabel('B. 2004 年').check();
    const values = page.getByRole('group', { name: multiple.stem });
    await values.getByLabel('A. 客户至上').check();
    await values.getByLabel('C. 诚信合规').check();
    await page.getByRole('group', { name: trueFalse.stem }).getByLabel(zh('exams.trueFalse.false')).check();
    await expectAccessible(page, 'the exam session');
    await snap(page, JOURNEY, '05-exam-session-zh');
    await new ExamPage(page).submit();
    await page.getByText(zh('exams.result.passed'), { exact: true }).waitFor();
    const answers = page.getByRole('list', { name: zh('exams.result.answers') });
    await answers.getByRole('listitem').filter({ hasText: trueFalse.stem }).getByText(zh('exams.answer.correct'), { exact: true }).waitFor();
    assert.equal(await answers.getByText(zh('exams.answer.correct'), { exact: true }).count(), 3);
    await expectAccessible(page, 'the exam result');
    await snap(page, JOURNEY, '06-exam-result-zh', { fullPage: true });

    await shell.open('records');
    const certificates = page.getByRole('region', { name: zh('records.certificates') });
    await certificates.getByText(examName).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), certificates.getByRole('button', { name: /^下载 PDF（证书 TB-/ }).click()]);
    const pdf = fs.readFileSync((await download.path())!);
    assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
  });

  test('no script errors or failed requests', () => {
    assert.deepEqual(pageErrors, []);
  });
});
