// The trainee's journey in headless Chromium against the real server, in Chinese: the dashboard with what the
// position requires, a formal exam that submits itself when its time runs out, the result with explanations, the
// certificate viewed and downloaded, English and back, the company page's media, and the version notice.
// Needs renderer/dist and Debian's /usr/bin/chromium, like ui.test.ts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { assertRendererBuilt, openBrowser, skipWithoutChromium } from './browser.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { LoginPage } from './page-models/login-page.js';
import { Shell } from './page-models/shell.js';
import { HomePage } from './page-models/home-page.js';
import { ExamPage } from './page-models/exam-page.js';
import { CompanyPage } from './page-models/company-page.js';
import { approve, pdf, uploadOk } from '../api/media-fixtures.js';
import { PNG_BYTES, toneWav } from '../api/audio-fixtures.js';
import { expectAccessible } from './axe.js';
import { snap } from './screenshots.js';
import { en, zh } from './i18n.js';
import { API_VERSION } from '../../contract/envelope.js';

const skip = skipWithoutChromium;
const JOURNEY = 'trainee-journey';

describe('the trainee journey in Chromium', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let pageErrors: string[] = [];
  let employee: { username: string; token: string };
  const suffix = crypto.randomBytes(3).toString('hex');
  const position = `理财顾问 ${suffix}`;
  const course = `合规基础 ${suffix}`;
  const product = `稳健收益基金 ${suffix}`;
  const topic = `熟悉网点营业时间 ${suffix}`;
  const examName = `产品知识考试 ${suffix}`;
  const rightStem = `稳健收益基金按季度付息（${suffix}）。`;
  const wrongStem = `理财经理可以向客户承诺收益（${suffix}）。`;
  const explanation = '承诺收益违反销售合规要求。';
  const media = { image: `branch-${suffix}.png`, audio: `welcome-${suffix}.wav`, pdf: `handbook-${suffix}.pdf` };

  before(async () => {
    assertRendererBuilt();
    server = await startTestServer();
    const admin = { token: server.adminToken };
    const created = async (path: string, body: Record<string, unknown>) => {
      const res = await server.api.post(path, { ...admin, body });
      assert.equal(res.status, 201, res.text);
      return res.body.data.id as number;
    };

    const courseId = await created('/api/courses', { title: course, summary: '销售合规的基本要求。' });
    const productId = await created('/api/products', { name: product, code: `SIF-${suffix}`, category: 'funds' });
    const positionId = await created('/api/system/positions', {
      name: position,
      description: '在网点为客户提供理财建议',
      knowledge: [
        { title: course, kind: 'course', ref_id: courseId },
        { title: product, kind: 'product', ref_id: productId },
        { title: topic, kind: 'text', is_mandatory: false },
      ],
    });
    employee = await server.user('employee', { position_id: positionId, department: '上海分行' });

    // The formal exam (published after the employee exists, so they are notified), with the shortest time limit.
    const domain = `trainee-${suffix}`;
    for (const [stem, answer] of [[rightStem, 'true'], [wrongStem, 'false']] as const) {
      await created('/api/exam/questions', { domain, type: 'true_false', stem, answer: [answer], explanation: stem === wrongStem ? explanation : '' });
    }
    await created('/api/exam/papers', { name: examName, type: 'formal', domain, question_count: 2, total_score: 100, pass_score: 50, duration_minutes: 1 });

    const config = await server.api.put('/api/system/config', { ...admin, body: { configs: { company_intro_content: '<h2>关于我们</h2><p>我们是一家服务社区的银行。</p>' } } });
    assert.equal(config.status, 200, config.text);
    const company = { bind_type: 'company' };
    for (const [name, data] of [[media.image, PNG_BYTES], [media.audio, toneWav(6)], [media.pdf, await pdf(['Employee handbook, page one', 'Page two'])]] as const) {
      await approve(server.api, server.adminToken, await uploadOk(server.api, employee.token, name, data, company));
    }

    ({ browser, page, pageErrors } = await openBrowser({ acceptDownloads: true }));
    // The page's clock is ours to move forward: the exam's minute passes without the test waiting for it.
    await page.clock.install();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('the dashboard shows what my position requires, the exam to take and the unread notice', async () => {
    await page.goto(`${server.url}/`);
    await new LoginPage(page).logIn(employee.username, 'secret-pass');
    const home = new HomePage(page);
    await home.card('position').getByText(position).waitFor();
    await home.knowledgeItem(course).getByText(zh('home.position.mandatory')).waitFor();
    await home.knowledgeItem(course).getByText(zh('home.progress.status.not_started')).waitFor();
    await home.knowledgeItem(product).getByRole('link', { name: product }).waitFor();
    await home.knowledgeItem(topic).getByText(zh('home.position.optional')).waitFor();
    await home.card('position').getByText(zh('home.position.mandatoryDone', { done: 0, count: 1 }), { exact: true }).waitFor();
    await home.card('exams').getByRole('link', { name: examName }).waitFor();
    await home.card('notifications').getByText(examName, { exact: false }).waitFor();
    await home.card('certificates').getByText(zh('records.noCertificates')).waitFor();
    await expectAccessible(page, 'the trainee dashboard');
    await snap(page, JOURNEY, '01-dashboard-zh');
  });

  test('completing the mandatory course shows on the dashboard', async () => {
    await new HomePage(page).knowledgeItem(course).getByRole('link', { name: course }).click();
    await page.getByRole('heading', { level: 1, name: course }).waitFor();
    await page.getByText(zh('home.progress.status.viewed')).waitFor();
    await page.getByRole('button', { name: zh('learning.course.complete') }).click();
    await page.getByText(zh('home.progress.status.completed')).waitFor();
    await expectAccessible(page, 'a course with its progress');
    await new Shell(page).open('home');
    await new HomePage(page).card('position').getByText(zh('home.position.mandatoryDone', { done: 1, count: 1 }), { exact: true }).waitFor();
  });

  test('an exam in progress asks before leaving, then submits itself when its minute is up', async () => {
    const exam = new ExamPage(page);
    await new HomePage(page).card('exams').getByRole('link', { name: examName }).click();
    await exam.start(2);
    assert.match((await exam.timer.textContent())!, /^[01]:\d\d$/);
    await exam.answer(rightStem, zh('exams.trueFalse.true'));
    await exam.answer(wrongStem, zh('exams.trueFalse.true'));
    await expectAccessible(page, 'an exam in progress');
    await snap(page, JOURNEY, '02-exam-session');

    // Inside the app: a dialog; "keep answering" stays on the exam.
    await new Shell(page).open('records');
    await exam.leaveDialog.waitFor();
    await snap(page, JOURNEY, '03-leave-dialog');
    await exam.stay();
    await exam.timer.waitFor();
    // Leaving the page (closing or reloading the window, another address): the browser's own question; "stay" keeps the exam.
    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.type());
      void dialog.dismiss();
    });
    await assert.rejects(page.goto('about:blank'), /ERR_ABORTED/);
    assert.deepEqual(asked, ['beforeunload']);
    await exam.timer.waitFor();

    await page.clock.fastForward('01:01');
    await exam.graded(wrongStem).getByText(zh('exams.answer.explanation', { text: explanation })).waitFor();
    await page.getByText(zh('exams.result.passed'), { exact: true }).waitFor();
    await exam.graded(rightStem).getByText(zh('exams.answer.correct'), { exact: true }).waitFor();
    await exam.graded(wrongStem).getByText(zh('exams.answer.right', { answer: zh('exams.trueFalse.false') })).waitFor();
    await expectAccessible(page, 'an exam result with explanations');
    await snap(page, JOURNEY, '04-exam-result', { fullPage: true });
    const records = await server.api.get('/api/exam/record', { token: employee.token });
    assert.equal(records.body.data.items[0].exam_name, examName);
    assert.equal(records.body.data.items[0].late, false);
  });

  test('the certificate of the passed exam can be viewed and downloaded', async () => {
    await page.getByRole('link', { name: zh('exams.result.certificate') }).click();
    await page.getByRole('heading', { level: 1, name: examName }).waitFor();
    await page.locator('canvas.pdf-page[data-rendered="1"]').waitFor();
    await expectAccessible(page, 'a certificate');
    await snap(page, JOURNEY, '05-certificate');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /^下载 PDF（证书 TB-/ }).click()]);
    assert.match(download.suggestedFilename(), /^TB-\d{8}-\d{6}\.pdf$/);
    const file = fs.readFileSync((await download.path())!);
    assert.equal(file.subarray(0, 5).toString(), '%PDF-');
    const [certificate] = (await server.api.get('/api/exam/certificates', { token: employee.token })).body.data;
    assert.equal(download.suggestedFilename(), `${certificate.certificate_no}.pdf`);
    const { extractText } = await import('unpdf');
    const { text } = await extractText(new Uint8Array(file), { mergePages: true });
    assert.ok(text.includes(certificate.certificate_no), `the saved certificate names its number: ${text}`);

    await new Shell(page).open('home');
    await new HomePage(page).card('certificates').getByRole('link', { name: examName }).waitFor();
  });

  test('the employee switches to English and back', async () => {
    await new Shell(page).switchTo('en');
    const home = new HomePage(page, 'en');
    await home.card('position').getByText(en('home.position.mandatory')).first().waitFor();
    await new Shell(page, 'en').navItem('leaderboard').click();
    await page.getByRole('heading', { level: 1, name: en('learning.leaderboard.title') }).waitFor();
    await page.getByRole('table', { name: en('learning.leaderboard.departments') }).getByRole('row').filter({ hasText: '上海分行' }).waitFor();
    await expectAccessible(page, 'the leaderboard in English');
    await snap(page, JOURNEY, '06-leaderboard-en');
    await new Shell(page, 'en').switchTo('zh-CN');
    await page.getByRole('heading', { level: 1, name: zh('learning.leaderboard.title') }).waitFor();
    assert.equal((await server.api.get('/api/auth/me', { token: employee.token })).body.data.locale, 'zh-CN');
  });

  test('the company page shows the approved image and PDF, and plays the audio from a chosen position', async () => {
    const company = new CompanyPage(page);
    const ranges: { status: number; range: string | null }[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/api/media/') && response.request().resourceType() === 'media') ranges.push({ status: response.status(), range: response.headers()['content-range'] ?? null });
    });
    await new Shell(page).open('company');
    await page.getByRole('heading', { name: '关于我们' }).waitFor();
    const image = company.image(media.image);
    await image.waitFor();
    await page.waitForFunction((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0, await image.elementHandle());
    await company.pdfPage(media.pdf).waitFor();

    const audio = company.audio(media.audio);
    await audio.evaluate((el: HTMLAudioElement) => new Promise((resolve) => (el.readyState >= 1 ? resolve(null) : el.addEventListener('loadedmetadata', resolve, { once: true }))));
    assert.equal(Math.round(await audio.evaluate((el: HTMLAudioElement) => el.duration)), 6);
    await audio.evaluate(async (el: HTMLAudioElement) => {
      el.muted = true;
      el.currentTime = 4;
      await el.play();
    });
    await page.clock.runFor(1000);
    await page.waitForFunction((el) => !(el as HTMLAudioElement).paused && (el as HTMLAudioElement).currentTime > 4, await audio.elementHandle());
    assert.ok(ranges.some((r) => r.status === 206 && /^bytes \d+-\d+\/\d+$/.test(r.range ?? '')), `the player fetched ranges: ${JSON.stringify(ranges)}`);
    await expectAccessible(page, 'the company page');
    await snap(page, JOURNEY, '07-company');
  });

  test('a server on another version is noticed and named', async () => {
    const notice = page.getByTestId('version-notice');
    assert.equal(await notice.count(), 0, 'no notice while the versions agree');
    await page.route('**/api/health', (route) => route.fulfill({ json: { status: 'ok', service: 'trainbench', version: '9.0.0' } }));
    await page.reload();
    await notice.getByText(zh('shell.versionMismatch.title', { app: API_VERSION, server: '9.0.0' })).waitFor();
    await expectAccessible(page, 'the version notice');
    await snap(page, JOURNEY, '08-version-notice');
    await page.unroute('**/api/health');
    await notice.getByRole('button', { name: zh('shell.versionMismatch.reload') }).click();
    await new Shell(page).signedInUser.waitFor();
    await page.getByRole('heading', { name: '关于我们' }).waitFor();
    assert.equal(await notice.count(), 0);
  });

  test('no script errors or failed requests', () => {
    assert.deepEqual(pageErrors, []);
  });
});
