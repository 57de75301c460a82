// Exam integrity in the browser, in Chinese at 1366×768: the session's 题目导航 (answered, unanswered, flagged),
// the confirmation before submit, a leave of the window counted onto the record, and a paper that does not show its
// answers saying so on the result. Needs renderer/dist and Debian's /usr/bin/chromium, like trainee.test.ts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { skipWithoutChromium } from './browser.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { Shell } from './page-models/shell.js';
import { ExamPage } from './page-models/exam-page.js';
import { expectAccessible } from './axe.js';
import { snap } from './screenshots.js';
import { zh } from './i18n.js';
import { openSignedIn } from './signed-in.js';
import type { ExamRecord } from '../../contract/exams.js';

const JOURNEY = 'exam-integrity';

describe('an exam that cannot be gamed', { skip: skipWithoutChromium }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let employee: { username: string; token: string };
  const suffix = crypto.randomBytes(3).toString('hex');
  const examName = `合规正式考试 ${suffix}`;
  const stems = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => `第 ${n} 条合规陈述属实（${suffix}）。`);

  before(async () => {
    server = await startTestServer();
    employee = await server.user('employee');
    const domain = `integrity-${suffix}`;
    for (const stem of stems) {
      const res = await server.api.post('/api/exam/questions', { token: server.adminToken, body: { domain, type: 'true_false', stem, answer: ['true'], explanation: '见合规手册第 3 章。' } });
      assert.equal(res.status, 201, res.text);
    }
    const paper = await server.api.post('/api/exam/papers', {
      token: server.adminToken,
      body: { name: examName, type: 'formal', domain, question_count: 8, total_score: 100, pass_score: 60, duration_minutes: 30, show_answers: 'never', shuffle_options: true },
    });
    assert.equal(paper.status, 201, paper.text);
    ({ browser, page } = await openSignedIn(server, { username: employee.username }));
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('the navigator shows answered, unanswered and flagged questions; submit asks first; the leave is on the record', async () => {
    const exam = new ExamPage(page);
    await new Shell(page).open('exams');
    await page.getByRole('link', { name: examName }).click();
    await page.getByText(zh('integrity.rules.answers.never')).waitFor();
    await exam.start(8);
    await exam.navigator.waitFor();

    await exam.answer(stems[0]!, zh('exams.trueFalse.false'));
    await exam.answer(stems[1]!, zh('exams.trueFalse.true'));
    await exam.flag(stems[1]!);
    const answered = zh('integrity.navigator.answered');
    const unanswered = zh('integrity.navigator.unanswered');
    const flagged = zh('integrity.navigator.flagged');
    const order = async (stem: string) => Number((await page.getByRole('group', { name: stem }).locator('.question-number').textContent())!.replace('.', ''));
    const navButton = async (stem: string, state: string) => exam.navigator.getByRole('button', { name: zh('integrity.navigator.goTo', { order: await order(stem), state }) });
    await (await navButton(stems[0]!, answered)).waitFor();
    await (await navButton(stems[1]!, `${answered}，${flagged}`)).waitFor();
    for (const stem of stems.slice(2)) await (await navButton(stem, unanswered)).waitFor();
    await exam.saveStatus('saved').waitFor();
    await expectAccessible(page, 'an exam with its question navigator');
    await snap(page, JOURNEY, '01-answer-card');

    // Another window takes the focus, then gives it back: one leave.
    await page.evaluate(() => {
      window.dispatchEvent(new Event('blur'));
      window.dispatchEvent(new Event('focus'));
    });
    await page.getByText(zh('integrity.leaves.notice', { count: 1 })).waitFor();

    await page.getByRole('button', { name: zh('exams.session.submit') }).click();
    await exam.confirmDialog.getByText(zh('integrity.confirm.summary', { answered: 2, unanswered: 6, flagged: 1 })).waitFor();
    await snap(page, JOURNEY, '02-confirm-submit');
    await exam.confirmDialog.getByRole('button', { name: zh('integrity.confirm.cancel') }).click();
    await exam.confirmDialog.waitFor({ state: 'hidden' });
    await exam.timer.waitFor();
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    assert.ok((await page.evaluate(() => window.scrollY)) > 0, 'the session scrolls');
    await exam.submit();

    await page.getByText(zh('integrity.hidden.answer')).waitFor();
    await exam.graded(stems[0]!).getByText(zh('integrity.hidden.right')).waitFor();
    assert.equal(await page.evaluate(() => window.scrollY), 0, 'the result opens at its top');
    assert.equal(await page.getByText('见合规手册第 3 章。').count(), 0, 'no explanation while answers are hidden');
    await snap(page, JOURNEY, '03-result-answers-hidden');

    const records = await server.api.get('/api/system/exam-records', { token: server.adminToken });
    const record = (records.body.data.items as ExamRecord[]).find((r) => r.exam_name === examName)!;
    assert.equal(record.leave_count, 1);
    assert.equal(record.correct_count, 1);
  });
});

describe('a server error in Chinese', { skip: skipWithoutChromium }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  const suffix = crypto.randomBytes(3).toString('hex');
  const examName = `限时考试 ${suffix}`;

  before(async () => {
    server = await startTestServer();
    const employee = await server.user('employee');
    const domain = `window-${suffix}`;
    await server.api.post('/api/exam/questions', { token: server.adminToken, body: { domain, type: 'true_false', stem: `限时题（${suffix}）`, answer: ['true'] } });
    await server.api.post('/api/exam/papers', { token: server.adminToken, body: { name: examName, type: 'formal', domain, question_count: 1, total_score: 100, pass_score: 60, duration_minutes: 30 } });
    ({ browser, page } = await openSignedIn(server, { username: employee.username }));
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('an exam that closed while its cover was open says so in Chinese, with the time it closed', async () => {
    await new Shell(page).open('exams');
    await page.getByRole('link', { name: examName }).click();
    const startButton = page.getByRole('button', { name: zh('exams.cover.startExam', { count: 1 }) });
    await startButton.waitFor();
    const papers = (await server.api.get('/api/exam/papers', { token: server.adminToken })).body.data as { id: number; name: string }[];
    const paper = papers.find((p) => p.name === examName)!;
    const closesAt = new Date(Date.now() - 60_000).toISOString();
    const closed = await server.api.put(`/api/exam/papers/${paper.id}`, { token: server.adminToken, body: { opens_at: new Date(Date.now() - 3600_000).toISOString(), closes_at: closesAt } });
    assert.equal(closed.status, 200, closed.text);

    await startButton.click();
    const shown = new Intl.DateTimeFormat('zh-CN', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(closesAt));
    await page.getByText(zh('errors.exam_window_closed', { closes_at: shown })).waitFor();
    assert.equal(await page.getByText(/closed at/i).count(), 0, 'no English from the server');
    await snap(page, JOURNEY, '04-translated-server-error');
  });
});
