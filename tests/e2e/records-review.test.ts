// Records, certificates, the mistake book, uploads and the admin review screens, driven in headless Chromium
// against the real server. Needs renderer/dist and Debian's /usr/bin/chromium, like ui.test.ts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { assertRendererBuilt, openBrowser, screenshot, skipWithoutChromium } from './browser.js';
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../support/server.js';
import { LoginPage } from './page-models/login-page.js';
import { Shell } from './page-models/shell.js';
import { ReviewPage } from './page-models/review-page.js';

const skip = skipWithoutChromium;

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

  const logInAs = async (username: string, password: string) => {
    await page.goto(`${server.url}/`);
    // The app restores a saved session after loading: wait for it to settle on one screen or the other.
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.or(page.getByRole('form', { name: 'Log in' })).waitFor();
    if (await nav.count()) await new Shell(page).nav.getByRole('button', { name: 'Log out' }).click();
    await new LoginPage(page).logIn(username, password);
  };

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
    await new Shell(page).open('My records');
    const row = page.getByRole('table', { name: 'Exam records' }).getByRole('row').filter({ hasText: examName });
    await row.getByText('Passed').waitFor();
    await row.getByText('1 of 2').waitFor();

    const certificates = page.getByRole('region', { name: 'Certificates' });
    await certificates.getByText(examName).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), certificates.getByRole('button', { name: /^Download certificate TB-/ }).click()]);
    assert.match(download.suggestedFilename(), /^TB-\d{8}-\d{6}\.pdf$/);
    const pdf = fs.readFileSync((await download.path())!);
    assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
    await page.screenshot({ path: screenshot('records'), fullPage: true });

    await row.getByRole('link', { name: examName }).click();
    const answers = page.getByRole('list', { name: 'Answers' });
    await answers.getByRole('listitem').filter({ hasText: rightStem }).getByText('Correct', { exact: true }).waitFor();
    const wrong = answers.getByRole('listitem').filter({ hasText: wrongStem });
    await wrong.getByText('Wrong', { exact: true }).waitFor();
    await wrong.getByText('Correct answer: False').waitFor();
  });

  test('a retry from the mistake book marks the question mastered', async () => {
    await new Shell(page).open('Mistake book');
    const entry = page.getByRole('listitem', { name: wrongStem });
    await entry.getByText('Missed 1 time').waitFor();
    await entry.getByRole('button', { name: 'Retry this one' }).click();

    await page.getByRole('timer', { name: 'Time left' }).waitFor();
    await page.getByRole('group', { name: wrongStem }).getByLabel('False').check();
    await page.getByRole('button', { name: 'Submit answers' }).click();
    await page.getByText('Passed', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Back to the exam' }).click();
    await entry.getByText('Mastered').waitFor();
  });

  test('an employee uploads material, and it waits for review', async () => {
    await new Shell(page).open('Upload material');
    const form = page.getByRole('form', { name: 'Upload material' });
    await form.getByLabel('File').setInputFiles({ name: uploadName, mimeType: 'text/plain', buffer: Buffer.from('Opening hours are nine to five on working days.\n') });
    await form.getByRole('button', { name: 'Upload' }).click();
    await form.getByText(`“${uploadName}” was uploaded and is waiting for review.`).waitFor();
    assert.equal(await new Shell(page).nav.getByText('Administration').count(), 0);
  });

  test('an admin approves the upload and follows its text extraction', async () => {
    await logInAs('admin', ADMIN_PASSWORD);
    await new Shell(page).open('Media review');
    const review = new ReviewPage(page);
    await review.row('Media', uploadName).waitFor();
    await page.screenshot({ path: screenshot('media-review'), fullPage: true });
    await review.approve('Media', uploadName);
    const approved = page.getByRole('region', { name: 'Just approved' });
    await approved.getByText('Done: 1 chunk indexed').waitFor();
    await review.row('Media', uploadName).waitFor({ state: 'detached' });

    await review.reject('Media', rejectedName, 'Blurry scan');
    await review.row('Media', rejectedName).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Rejected' }).click();
    await review.row('Media', rejectedName).getByText('Blurry scan').waitFor();
  });

  test('an admin scans the knowledge folder, approves the new source with its counts', async () => {
    await new Shell(page).open('Knowledge review');
    await page.getByRole('button', { name: 'Scan knowledge folder' }).click();
    await page.getByRole('table', { name: 'Scan results' }).getByRole('row').filter({ hasText: knowledgeTitle }).getByText('Created').waitFor();
    const review = new ReviewPage(page);
    await review.approve('Knowledge sources', knowledgeTitle);
    await page.getByText(`Approved “${knowledgeTitle}”: loaded 0 products, 0 questions, 1 text chunk.`).waitFor();
    await page.screenshot({ path: screenshot('knowledge-review'), fullPage: true });
  });

  test('an admin finds everyone\'s exam records by person and result; "My records" stays their own', async () => {
    const shell = new Shell(page);
    await shell.open('Exam records');
    const table = page.getByRole('table', { name: 'Exam records' });
    const row = table.getByRole('row').filter({ hasText: examName });
    await row.getByText(employee.username).waitFor();
    const search = page.getByRole('search', { name: 'Find exam records' });
    await search.getByLabel('Person or exam').fill(employee.username);
    await search.getByRole('button', { name: 'Search' }).click();
    await row.getByText('Passed', { exact: true }).waitFor();
    await search.getByLabel('Result').selectOption('false');
    await page.getByText('No record matches.').waitFor();
    await search.getByLabel('Result').selectOption('');
    await row.getByRole('link', { name: examName }).click();
    await page.getByRole('heading', { name: examName }).waitFor();

    await shell.open('My records');
    await page.getByText('No exam records yet.').waitFor();
  });

  test('no script errors or failed requests', () => {
    assert.deepEqual(pageErrors, []);
  });
});
