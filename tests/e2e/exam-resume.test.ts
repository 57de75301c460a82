// Never losing an exam in progress, in headless Chromium against the real server: the answers are saved as the
// trainee answers; leaving, reloading, an answer that never reached the server and a server restart lose nothing;
// the exam resumes with its own deadline; a session whose time ran out while away is submitted with what was saved.
// Needs renderer/dist and Debian's /usr/bin/chromium, like trainee.test.ts.
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
import type { AnswerMap, ExamListItem } from '../../contract/exams.js';
import { openSignedIn } from './signed-in.js';

const JOURNEY = 'exam-resume';
const TRUE = zh('exams.trueFalse.true');
const FALSE = zh('exams.trueFalse.false');

describe('an exam in progress is never lost', { skip: skipWithoutChromium }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let pageErrors: string[] = [];
  let employee: { username: string; token: string };
  const suffix = crypto.randomBytes(3).toString('hex');
  const examName = `断点续考 ${suffix}`;
  const shortName = `超时交卷 ${suffix}`;
  /** Four true statements: "正确" is right, "错误" wrong. */
  const stems = [1, 2, 3, 4].map((n) => `第 ${n} 条陈述属实（${suffix}）。`);
  const ids = new Map<string, number>();
  let sessionId = '';

  const created = async (path: string, body: Record<string, unknown>) => {
    const res = await server.api.post(path, { token: server.adminToken, body });
    assert.equal(res.status, 201, res.text);
    return res.body.data.id as number;
  };
  const listed = async (name: string) => ((await server.api.get('/api/exam/list', { token: employee.token })).body.data as ExamListItem[]).find((e) => e.name === name)!;
  const savedOnServer = async () => (await server.api.get(`/api/exam/sessions/${sessionId}`, { token: employee.token })).body.data.saved_answers as AnswerMap;
  const expected = (...answers: [number, 'true' | 'false'][]) => Object.fromEntries(answers.map(([n, value]) => [String(ids.get(stems[n - 1]!)), value]));
  /** The seconds the timer shows ("m:ss"). */
  const timerSeconds = async (exam: ExamPage) => {
    const [minutes, seconds] = (await exam.timer.textContent())!.split(':').map(Number);
    return minutes! * 60 + seconds!;
  };
  /** Moves the session's deadline on the server: it now ends `minutes` from now (negative: ended that long ago). */
  const deadlineIn = (id: string, minutes: number) => {
    const deadline = Date.now() + minutes * 60_000;
    return server.server.db('exam_sessions').where({ id }).update({ started_at: new Date(deadline - 30 * 60_000).toISOString(), deadline_at: new Date(deadline).toISOString() });
  };
  /** Reloads the page, answering the browser's "leave this page?" with yes. */
  const reload = async () => {
    page.once('dialog', (dialog) => void dialog.accept());
    await page.reload();
  };

  before(async () => {
    server = await startTestServer();
    employee = await server.user('employee');
    const domain = `resume-${suffix}`;
    for (const stem of stems) ids.set(stem, await created('/api/exam/questions', { domain, type: 'true_false', stem, answer: ['true'] }));
    await created('/api/exam/papers', { name: examName, type: 'formal', domain, question_count: 4, total_score: 100, pass_score: 50, duration_minutes: 30 });
    const shortDomain = `resume-short-${suffix}`;
    for (const stem of [`超时题一（${suffix}）`, `超时题二（${suffix}）`]) await created('/api/exam/questions', { domain: shortDomain, type: 'true_false', stem, answer: ['true'] });
    await created('/api/exam/papers', { name: shortName, type: 'formal', domain: shortDomain, question_count: 2, total_score: 100, pass_score: 50, duration_minutes: 30 });
    ({ browser, page, pageErrors } = await openSignedIn(server, { username: employee.username }));
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('answers reach the server as they are given; the list offers to continue; the exam resumes with them', async () => {
    const exam = new ExamPage(page);
    await new Shell(page).open('exams');
    await page.getByRole('link', { name: examName }).click();
    await exam.start(4);
    await exam.answer(stems[0]!, TRUE);
    await exam.answer(stems[1]!, FALSE);
    await exam.saveStatus('saved').waitFor();
    sessionId = (await listed(examName)).open_session!.session_id;
    assert.deepEqual(await savedOnServer(), expected([1, 'true'], [2, 'false']));
    await expectAccessible(page, 'an exam with its answers saved');
    await snap(page, JOURNEY, '01-saved');

    await new Shell(page).open('exams');
    await exam.leaveDialog.getByText(zh('exams.leave.text')).waitFor();
    await snap(page, JOURNEY, '02-leave-keeps-answers');
    await exam.leave();
    const row = page.getByRole('row').filter({ hasText: examName });
    await row.getByText(zh('exams.standing.in_progress')).waitFor();
    await expectAccessible(page, 'the exams list with an exam to continue');
    await snap(page, JOURNEY, '03-list-continue');
    await row.getByRole('link', { name: zh('exams.continue') }).click();
    await exam.timer.waitFor();
    assert.equal(await exam.option(stems[0]!, TRUE).isChecked(), true);
    assert.equal(await exam.option(stems[1]!, FALSE).isChecked(), true);
    assert.equal(await exam.option(stems[2]!, TRUE).isChecked(), false);
  });

  test('a reload keeps the answers and the deadline: the timer goes on, it does not start again', async () => {
    const exam = new ExamPage(page);
    assert.ok((await timerSeconds(exam)) > 20 * 60, 'a fresh 30-minute exam');
    await deadlineIn(sessionId, 10);
    await reload();
    await exam.timer.waitFor();
    assert.ok((await timerSeconds(exam)) <= 10 * 60, `the server's deadline, 10 minutes away: ${await exam.timer.textContent()}`);
    assert.equal(await exam.option(stems[0]!, TRUE).isChecked(), true);
    assert.equal(await exam.option(stems[1]!, FALSE).isChecked(), true);
    await exam.saveStatus('saved').waitFor();
  });

  test('an answer that never reached the server is kept on this machine through a reload, and sent afterwards', async () => {
    const exam = new ExamPage(page);
    const answersPath = `**/api/exam/sessions/${sessionId}/answers`;
    await page.route(answersPath, (route) => route.abort());
    await exam.answer(stems[2]!, TRUE);
    await exam.saveStatus('retrying').waitFor();
    await reload();
    await exam.timer.waitFor();
    assert.equal(await exam.option(stems[2]!, TRUE).isChecked(), true, 'kept on this machine');
    assert.deepEqual(await savedOnServer(), expected([1, 'true'], [2, 'false']), 'not on the server yet');
    await exam.saveStatus('retrying').waitFor();
    await page.unroute(answersPath);
    await exam.saveStatus('saved').waitFor();
    assert.deepEqual(await savedOnServer(), expected([1, 'true'], [2, 'false'], [3, 'true']));
  });

  test('answers given while the server restarts reach it once it is back; the submit grades them', async () => {
    const exam = new ExamPage(page);
    const shell = new Shell(page);
    await server.stop();
    await exam.answer(stems[3]!, TRUE);
    await exam.saveStatus('retrying').waitFor();
    await shell.connectionBanner.getByText(zh('shell.connection.reconnecting')).waitFor();
    await expectAccessible(page, 'an exam whose answers wait for the server');
    await snap(page, JOURNEY, '04-waiting-for-server');

    await server.restart({ samePort: true });
    await exam.saveStatus('saved').waitFor();
    await shell.connectionBanner.waitFor({ state: 'detached' });
    assert.deepEqual(await savedOnServer(), expected([1, 'true'], [2, 'false'], [3, 'true'], [4, 'true']));

    await exam.submit();
    await page.getByText(zh('exams.result.passed'), { exact: true }).waitFor();
    await exam.graded(stems[1]!).getByText(zh('exams.answer.wrong'), { exact: true }).waitFor();
    await snap(page, JOURNEY, '05-result');
    const [record] = (await server.api.get('/api/exam/record', { token: employee.token })).body.data.items;
    assert.equal(record.session_id, sessionId);
    assert.equal(record.score, 75);
    assert.equal(record.late, false);
    assert.equal((await listed(examName)).open_session, null);
  });

  test('an exam whose time ran out while away is submitted with the answers saved by then', async () => {
    const exam = new ExamPage(page);
    await new Shell(page).open('exams');
    await page.getByRole('link', { name: shortName }).click();
    await exam.start(2);
    await exam.answer(`超时题一（${suffix}）`, TRUE);
    await exam.saveStatus('saved').waitFor();
    const { session_id } = (await listed(shortName)).open_session!;
    await new Shell(page).open('exams');
    await exam.leave();
    await page.getByRole('row').filter({ hasText: shortName }).getByRole('link', { name: zh('exams.continue') }).waitFor();

    await deadlineIn(session_id, -5);
    await page.reload(); // the list asks nothing before leaving
    await page.getByRole('row').filter({ hasText: shortName }).getByText(zh('exams.standing.not_started')).waitFor();
    await page.getByRole('link', { name: shortName }).click();
    await page.getByText(zh('exams.result.late')).waitFor();
    await page.getByText(zh('exams.result.passed'), { exact: true }).waitFor();
    await expectAccessible(page, 'a late result after coming back');
    await snap(page, JOURNEY, '06-late-result');
    const detail = (await server.api.get(`/api/exam/record/${session_id}`, { token: employee.token })).body.data;
    assert.equal(detail.late, true);
    assert.equal(detail.correct_count, 1, 'the answer saved before the deadline');
    assert.equal(detail.score, 50);
  });

  test('nothing failed but the requests the stopped server or the cut line could not answer', () => {
    assert.deepEqual(pageErrors.filter((e) => !/ERR_CONNECTION_REFUSED|ERR_FAILED|Failed to load resource/.test(e)), []);
  });
});
