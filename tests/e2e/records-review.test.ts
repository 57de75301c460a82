// Records, certificates, the mistake book, uploads and the admin review screens, driven in headless Chromium
// against the real server. Needs renderer/dist and Debian's /usr/bin/chromium, like ui.test.ts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { assertRendererBuilt, openBrowser, skipWithoutChromium } from './browser.js';
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../support/server.js';
import { LoginPage } from './page-models/login-page.js';
import { Shell } from './page-models/shell.js';
import { ExamPage } from './page-models/exam-page.js';
import { ReviewPage } from './page-models/review-page.js';
import { chooseOption, pickRadio } from './antd.js';
import { expectAccessible } from './axe.js';
import { snap } from './screenshots.js';
import { zh } from './i18n.js';

const skip = skipWithoutChromium;
const JOURNEY = 'trainee-records';

describe('records, mistake book and review screens in Chromium', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let employee: { username: string; token: string };
  let pageErrors: string[] = [];
  const suffix = crypto.randomBytes(3).toString('hex');
  const domain = `basics-${suffix}`;
  const examName = `Company basics ${suffix}`;
  const rightStem = `The company was founded in 2004 (${suffix}).`;
  const wrongStem = `Advisers may promise returns (${suffix}).`;
  const uploadName = `handbook-${suffix}.txt`;
  const rejectedName = `scan-${suffix}.txt`;
  const knowledgeTitle = `Service charter ${suffix}`;
  const courseName = `Opening hours ${suffix}`;
  let courseId = 0;

  const logInAs = (username: string, password: string) => new LoginPage(page).logInAfresh(`${server.url}/`, username, password);

  before(async () => {
    assertRendererBuilt();
    server = await startTestServer();
    const admin = { token: server.adminToken };
    employee = await server.user('employee');

    // A formal exam of two true/false questions; the employee gets one right and one wrong: 50 of 100 passes.
    const ids: number[] = [];
    for (const stem of [rightStem, wrongStem]) {
      const q = await server.api.post('/api/exam/questions', { ...admin, body: { domain, type: 'true_false', stem, answer: [stem === rightStem ? 'true' : 'false'], explanation: 'See the handbook.' } });
      assert.equal(q.status, 201, q.text);
      ids.push(q.body.data.id);
    }
    const paper = await server.api.post('/api/exam/papers', {
      ...admin,
      body: { name: examName, type: 'formal', domain, question_count: 2, total_score: 100, pass_score: 50, duration_minutes: 10 },
    });
    assert.equal(paper.status, 201, paper.text);
    const started = await server.api.post('/api/exam/start', { token: employee.token, body: { paper_id: paper.body.data.id } });
    assert.equal(started.status, 200, started.text);
    const submitted = await server.api.post('/api/exam/submit', {
      token: employee.token,
      body: { session_id: started.body.data.session_id, answers: { [ids[0]!]: 'true', [ids[1]!]: 'true' } },
    });
    assert.equal(submitted.status, 200, submitted.text);
    assert.equal(submitted.body.data.passed, true);

    const form = new FormData();
    form.set('file', new Blob(['A page nobody can read.']), rejectedName);
    const uploaded = await server.api.post('/api/media/upload', { token: employee.token, form });
    assert.equal(uploaded.status, 201, uploaded.text);

    const course = await server.api.post('/api/courses', { ...admin, body: { title: courseName } });
    assert.equal(course.status, 201, course.text);
    courseId = course.body.data.id;

    fs.mkdirSync(server.config.knowledgeDir, { recursive: true });
    fs.writeFileSync(path.join(server.config.knowledgeDir, `charter-${suffix}.md`), `# ${knowledgeTitle}\n\nWe answer every client within one working day.\n`);

    ({ browser, page, pageErrors } = await openBrowser({ acceptDownloads: true }));
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('an employee sees the record, downloads the certificate and reviews each answer', async () => {
    await logInAs(employee.username, 'secret-pass');
    await new Shell(page).open('records');
    const row = page.getByRole('table', { name: zh('records.tableLabel') }).getByRole('row').filter({ hasText: examName });
    await row.getByText(zh('exams.result.passed')).waitFor();
    await row.getByText(zh('records.correctOf', { correct: 1, count: 2 })).waitFor();

    const certificates = page.getByRole('region', { name: zh('records.certificates') });
    await certificates.getByText(examName).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), certificates.getByRole('button', { name: /^下载 PDF（证书 TB-/ }).click()]);
    assert.match(download.suggestedFilename(), /^TB-\d{8}-\d{6}\.pdf$/);
    const pdf = fs.readFileSync((await download.path())!);
    assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
    await expectAccessible(page, 'my records');
    await snap(page, JOURNEY, '01-records-trainee-zh', { fullPage: true });

    await row.getByRole('link', { name: examName }).click();
    const answers = page.getByRole('list', { name: zh('exams.result.answers') });
    await answers.getByRole('listitem').filter({ hasText: rightStem }).getByText(zh('exams.answer.correct'), { exact: true }).waitFor();
    const wrong = answers.getByRole('listitem').filter({ hasText: wrongStem });
    await wrong.getByText(zh('exams.answer.wrong'), { exact: true }).waitFor();
    await wrong.getByText(zh('exams.answer.right', { answer: zh('exams.trueFalse.false') })).waitFor();
    await expectAccessible(page, 'a record');
  });

  test('a retry from the mistake book marks the question mastered', async () => {
    await new Shell(page).open('mistakes');
    const entry = page.getByRole('listitem', { name: wrongStem });
    await entry.getByText(zh('records.mistakes.missed', { count: 1 })).waitFor();
    await expectAccessible(page, 'the mistake book');
    await snap(page, JOURNEY, '02-mistakes');
    await entry.getByRole('button', { name: zh('records.mistakes.retryOne') }).click();

    await page.getByRole('timer', { name: zh('exams.session.timeLeft') }).waitFor();
    await expectAccessible(page, 'an exam session');
    await snap(page, JOURNEY, '03-retry-session');
    await page.getByRole('group', { name: wrongStem }).getByLabel(zh('exams.trueFalse.false')).check();
    await new ExamPage(page).submit();
    await page.getByText(zh('exams.result.passed'), { exact: true }).waitFor();
    await expectAccessible(page, 'an exam result');
    // Labelled as a redo, with the way back to the mistake book (not to 我的成绩 or the exams).
    await page.getByRole('heading', { level: 1, name: zh('exams.retryName') }).waitFor();
    await page.getByText(zh('exams.result.redone')).waitFor();
    assert.equal(await page.getByRole('link', { name: zh('exams.back') }).count(), 0);
    assert.equal(await page.getByRole('button', { name: zh('exams.result.again') }).count(), 0);
    await page.getByRole('button', { name: zh('exams.result.toMistakes') }).waitFor();
    await snap(page, JOURNEY, '04-retry-result');
    await page.getByRole('link', { name: zh('exams.result.toMistakes') }).click();
    await entry.getByText(zh('records.mistakes.mastered')).waitFor();
    assert.match(page.url(), /#\/mistakes$/);
  });

  test('an employee uploads material, and it waits for review', async () => {
    await new Shell(page).open('upload');
    const form = page.getByRole('form', { name: zh('media.upload.title') });
    await form.getByLabel(zh('media.upload.file'), { exact: true }).setInputFiles({ name: uploadName, mimeType: 'text/plain', buffer: Buffer.from('Opening hours are nine to five on working days.\n') });
    // The course is picked by its name, not typed as an id.
    await chooseOption(page, form.getByLabel(zh('media.upload.attachTo')), zh('media.bindType.course'));
    await form.getByRole('button', { name: zh('media.upload.submit'), exact: true }).click();
    await form.getByText(zh('media.upload.pickRequired')).waitFor();
    await chooseOption(page, form.getByLabel(zh('media.upload.course'), { exact: true }), courseName, { search: true });
    await snap(page, JOURNEY, '05-upload-pick-course-zh');
    await form.getByRole('button', { name: zh('media.upload.submit'), exact: true }).click();
    await page.getByText(zh('media.upload.done', { name: uploadName })).waitFor();
    const [sent] = (await server.api.get('/api/media/audit-list', { token: server.adminToken })).body.data.items.filter((m: { filename: string }) => m.filename === uploadName);
    assert.deepEqual([sent.bind_type, sent.bind_id], ['course', courseId]);
    await expectAccessible(page, 'the upload page');
    assert.equal(await new Shell(page).group('admin').count(), 0);
  });

  test('an admin approves the upload and follows its text extraction', async () => {
    await logInAs('admin', ADMIN_PASSWORD);
    await new Shell(page).open('mediaReview');
    const review = new ReviewPage(page, 'media.review.tableLabel');
    await review.row(uploadName).waitFor();
    await expectAccessible(page, 'media review');
    await snap(page, 'admin-review', '01-media-review-zh');
    // The reviewer reads the pending file before deciding.
    await review.row(uploadName).getByRole('button', { name: zh('media.review.previewNamed', { name: uploadName }) }).click();
    const preview = page.getByRole('dialog', { name: zh('media.review.previewTitle', { name: uploadName }) });
    await preview.getByText('Opening hours are nine to five on working days.').waitFor();
    await expectAccessible(page, 'a pending file previewed');
    await snap(page, 'admin-review', '01-media-preview-pending-zh');
    await page.keyboard.press('Escape');
    await preview.waitFor({ state: 'detached' });
    await review.approve(uploadName);
    const approved = page.getByRole('region', { name: zh('media.review.justApproved') });
    await approved.getByText(zh('media.extraction.done', { count: 1 })).waitFor();
    await review.row(uploadName).waitFor({ state: 'detached' });

    await review.reject(rejectedName, 'Blurry scan');
    await review.row(rejectedName).waitFor({ state: 'detached' });
    await review.showStatus('rejected');
    await review.row(rejectedName).getByText('Blurry scan').waitFor();
  });

  test('an admin scans the knowledge folder, approves the new source with its counts', async () => {
    await new Shell(page).open('knowledgeReview');
    await page.getByRole('button', { name: zh('knowledge.scan.start') }).click();
    await page.getByRole('table', { name: zh('knowledge.scan.results') }).getByRole('row').filter({ hasText: knowledgeTitle }).getByText(zh('knowledge.scan.status.created')).waitFor();
    const review = new ReviewPage(page, 'knowledge.tableLabel');
    await review.approve(knowledgeTitle);
    const loaded = zh('knowledge.loaded', { products: zh('knowledge.products', { count: 0 }), questions: zh('knowledge.questions', { count: 0 }), chunks: zh('knowledge.chunks', { count: 1 }) });
    await page.getByText(zh('knowledge.approved', { title: knowledgeTitle, loaded })).waitFor();
    await expectAccessible(page, 'knowledge review');
    await snap(page, 'admin-review', '02-knowledge-review-zh');
  });

  test('an admin finds everyone\'s exam records by person and result; "My records" stays their own', async () => {
    const shell = new Shell(page);
    await shell.open('examRecords');
    const table = page.getByRole('table', { name: zh('records.tableLabel') });
    const row = table.getByRole('row').filter({ hasText: examName });
    await row.getByText(employee.username).waitFor();
    const search = page.getByRole('search', { name: zh('records.everyone.search') });
    await search.getByLabel(zh('records.everyone.keyword')).fill(employee.username);
    await search.getByRole('button', { name: zh('common.action.search') }).click();
    await row.getByText(zh('exams.result.passed'), { exact: true }).waitFor();
    assert.match(page.url(), new RegExp(`keyword=${employee.username}`));
    const result = search.getByRole('radiogroup', { name: zh('records.everyone.result') });
    await pickRadio(result, zh('exams.result.failed'));
    await page.getByText(zh('records.everyone.noMatch')).waitFor();
    await pickRadio(result, zh('common.filter.all'));
    await expectAccessible(page, 'everyone\'s exam records');
    await snap(page, 'admin-review', '03-exam-records-zh');
    await row.getByRole('link', { name: examName }).click();
    await page.getByRole('heading', { name: examName }).waitFor();

    await shell.open('records');
    await page.getByText(zh('records.empty')).waitFor();
  });

  test('no script errors or failed requests', () => {
    assert.deepEqual(pageErrors, []);
  });
});
