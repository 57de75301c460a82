// From a customer call to coaching, in headless Chromium against the real server: a rep sends a stereo call spoken
// by two espeak-ng voices (transcribed by the fake OpenAI-compatible server, so the text is the one spoken), follows
// the job, reads the transcript by speaker, gets a coaching report whose misstated fact cites the approved chunk,
// plays the call from the quote and opens the role-play; an admin approves the draft question into the bank. A mono
// recording on the local whisper.cpp route shows the degraded notice.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { assertRendererBuilt, openBrowser, skipWithoutChromium } from './browser.js';
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../support/server.js';
import type { FakeModel } from '../support/fake-model.js';
import { writeTinyWhisperModel } from '../support/tiny-whisper-model.js';
import { LOCAL_PATH_MISSING, callFixtures, stereoCall, type TimedTurn } from '../api/audio-fixtures.js';
import { TURNS, approveHandbook, chunkContaining, modelReply, type Chunk } from '../api/coaching-fixtures.js';
import { useFakeModel } from '../api/workbench.fixtures.js';
import { LoginPage } from './page-models/login-page.js';
import { Shell } from './page-models/shell.js';
import { CallsPage } from './page-models/calls-page.js';
import { CoachingReportPage } from './page-models/coaching-report-page.js';
import { ReviewPage } from './page-models/review-page.js';
import { expectAccessible } from './axe.js';
import { snap } from './screenshots.js';
import { en, zh } from './i18n.js';
import { FIXTURE_TOOLS_SKIP } from '../support/tools.js';

const FIXTURE_TOOLS_MISSING = FIXTURE_TOOLS_SKIP;
const JOURNEY = 'rep-call-coaching';
const COMMISSION_STEM = '「Steady Income Fund」的佣金比例是多少？';
/** Seconds as the screens show them: 75.4 → "1:15". */
const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, '0')}`;

describe('from a customer call to coaching in Chromium', { skip: skipWithoutChromium || FIXTURE_TOOLS_MISSING }, () => {
  let server: TestServer;
  let fake: FakeModel;
  let browser: Browser;
  let page: Page;
  let pageErrors: string[] = [];
  let rep: { username: string; token: string };
  let analysisReply = '';
  let call: { file: string; turns: TimedTurn[] };
  let commissionChunk: Chunk;
  let reportUrl = '';

  const calls = () => new CallsPage(page);
  const report = () => new CoachingReportPage(page);
  const transcribeAs = () => ({ text: TURNS.map((t) => t.text).join(' '), language: 'en', segments: call.turns.map((t) => ({ start: t.start, end: t.end, text: t.text, speaker: t.side })) });

  const logInAs = (username: string, password: string) => new LoginPage(page).logInAfresh(`${server.url}/`, username, password);

  before(async () => {
    assertRendererBuilt();
    server = await startTestServer();
    [fake, call] = await Promise.all([useFakeModel(server), stereoCall(TURNS.map((t) => ({ ...t })))]);
    await approveHandbook(server);
    commissionChunk = await chunkContaining(server, 'advisers commission', 'pays advisers a commission of 2.5 percent');
    const risk = await chunkContaining(server, 'guaranteed', 'returns are not guaranteed');
    // No local route yet: the cloud route (the fake server) is how this install transcribes.
    const route = await server.api.post('/api/ai/routes', { token: server.adminToken, body: { kind: 'audio', name: 'Cloud STT', provider: 'openai-compatible', base_url: fake.baseUrl, model: 'whisper-1', is_local: false } });
    assert.equal(route.status, 201, route.text);
    analysisReply = JSON.stringify(modelReply(risk.id));
    rep = await server.user('employee', { full_name: 'Anna Li' });
    ({ browser, page, pageErrors } = await openBrowser());
    await logInAs(rep.username, 'secret-pass');
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await fake?.close();
  });

  test('a transcription in progress shows its stage and can be cancelled: nothing is kept', async () => {
    fake.behave({ transcription: transcribeAs(), holdTranscription: true });
    await new Shell(page).open('calls');
    await expectAccessible(page, 'the call transcription screen');
    await calls().form.getByRole('checkbox', { name: zh('calls.upload.bySpeaker') }).waitFor();
    assert.deepEqual(await calls().channelNames(), [zh('calls.speaker.rep'), zh('calls.speaker.customer')], 'the channels are named by role, in Chinese, to begin with');
    await new Shell(page).switchTo('en');
    await page.getByRole('form', { name: en('calls.upload.title') }).getByText(en('calls.upload.left')).waitFor();
    await snap(page, JOURNEY, '00-upload-en');
    await new Shell(page, 'en').switchTo('zh-CN');
    await calls().form.waitFor();
    await calls().transcribe(call.file);
    await calls().progress.getByText(zh('calls.job.stage.uploading')).waitFor();
    await calls().progress.getByText(zh('calls.job.route', { name: 'Cloud STT' })).waitFor();
    await snap(page, JOURNEY, '01-transcribing-zh');
    // The job is in the address: opened again, the page follows it where it is.
    await page.reload();
    await calls().progress.getByText(zh('calls.job.stage.uploading')).waitFor();
    await calls().progress.getByRole('button', { name: zh('calls.job.cancel') }).click();
    await calls().progress.getByText(zh('calls.job.cancelled')).waitFor();
    assert.equal(fake.aborted, 1, 'the request to the cloud route was aborted');
    const kept = await server.api.get('/api/audio/transcriptions', { token: rep.token });
    assert.equal(kept.body.data.total, 0, 'nothing was stored');
  });

  test('a failed transcription says 失败 with its reason, stays in 我的通话转写 and is retried from there', async () => {
    fake.behave({ failStatus: 503 });
    await calls().transcribe(call.file);
    const state = calls().progress.getByRole('status');
    await state.getByText(new RegExp(`^${zh('calls.job.failed')}`)).waitFor();
    assert.ok(!(await state.innerText()).includes(zh('calls.job.stage.finished')), 'not shown as finished');
    await calls().progress.getByText(zh('errors.speech_route_failed')).waitFor();
    const row = calls().failedJobs.getByRole('row').filter({ hasText: path.basename(call.file) });
    await row.getByText(zh('calls.list.failed'), { exact: true }).waitFor();
    await row.getByText(zh('errors.speech_route_failed')).waitFor();
    await expectAccessible(page, 'a failed transcription');
    await snap(page, JOURNEY, '01-failed-transcription-zh', { fullPage: true });
    // Left and opened again, it is still listed.
    await new Shell(page).open('home');
    await new Shell(page).open('calls');
    await row.waitFor();
    fake.behave({ transcription: transcribeAs() });
    const sentBefore = fake.requests.length;
    await row.getByRole('button', { name: zh('calls.list.retry') }).click();
    await calls().transcript.waitFor();
    assert.ok(fake.requests.length > sentBefore, 'the kept recording was sent again');
    await new Shell(page).open('calls');
    await page.getByRole('heading', { name: zh('calls.list.title') }).waitFor();
    assert.equal(await calls().failedJobs.count(), 0, 'a retried job leaves the failed list');
    const stored = await server.api.get('/api/audio/transcriptions', { token: rep.token });
    assert.equal(stored.body.data.total, 1);
  });

  test('a stereo call is transcribed with the rep and the customer in two colours, and says the audio went to the cloud', async () => {
    fake.behave({ transcription: transcribeAs(), chunks: [analysisReply] });
    await calls().transcribe(call.file);
    await calls().transcript.waitFor();
    assert.match(page.url(), /#\/calls\/\d+$/);
    const lines = await calls().lines();
    assert.deepEqual(
      lines.map(([, speaker, text]) => [speaker, text]),
      TURNS.map((t) => [zh(`calls.speaker.${t.side}`), t.text]),
    );
    assert.equal(lines[1]![0], clock(call.turns[1]!.start), 'each line shows its time on the call');
    const colours = await calls().speakerClasses();
    assert.deepEqual(colours, TURNS.map((t) => `speaker ${t.side === 'rep' ? 'speaker-a' : 'speaker-b'}`));
    await page.getByText(zh('calls.transcript.sentToCloud', { name: 'Cloud STT' })).waitFor();
    await expectAccessible(page, 'a transcribed call');
    await snap(page, JOURNEY, '02-transcript-zh', { fullPage: true });
  });

  test('call analysis runs the call_analysis skill on the transcript', async () => {
    const result = await calls().runAnalysis();
    await result.waitFor();
    const sent = fake.requests.at(-1)!.body.messages!.map((m) => m.content).join('\n');
    assert.match(sent, /That commission sounds too high for me\./, 'the transcript went to the model');
    assert.match(await result.innerText(), /customer/, 'the figures per speaker head the report');
  });

  test('the coaching report flags the misstated commission, quoting the rep and citing the approved chunk', async () => {
    await calls().createReport();
    const commission = report().fact('佣金比例');
    await commission.waitFor();
    reportUrl = page.url();
    assert.match(reportUrl, /#\/coaching\/reports\/\d+$/);
    const text = await commission.innerText();
    assert.match(text, new RegExp(zh('coaching.facts.misstated')));
    assert.ok(text.includes(zh('coaching.facts.stated', { stated: '3.5 percent' })), text);
    assert.ok(text.includes(TURNS[2].text), 'the rep’s words, quoted');
    const turn = call.turns[2]!;
    assert.ok(text.includes(clock(turn.start)), `the quote's time: ${text}`);
    const cited = await report().citations(commission).innerText();
    assert.ok(cited.includes(zh('coaching.citation.chunk', { title: 'Steady Income Fund handbook', id: commissionChunk.id })), cited);
    assert.ok(cited.includes(zh('coaching.citation.field', { product: 'Steady Income Fund', label: '佣金比例' })), cited);
    assert.equal(await report().objections.count(), 2);
    assert.equal(await report().practice.getByRole('heading', { level: 3 }).count(), 3, 'three things to practise');
    await expectAccessible(page, 'a coaching report');
    await snap(page, JOURNEY, '03-report-zh', { fullPage: true });
  });

  test('the misstated fact is on the rep’s review list, ticked off once reviewed', async () => {
    const item = report().reviewItem('佣金比例', '3.5 percent', '2.5%');
    await item.click();
    await item.and(page.locator('input:checked:enabled')).waitFor();
    const list = await server.api.get('/api/coaching/review-items', { token: rep.token });
    const commission = list.body.data.items.find((i: { label: string }) => i.label === '佣金比例');
    assert.equal(commission.mastered, true);
  });

  test('the rep plays the call from the quote', async () => {
    const turn = call.turns[2]!;
    await report().playFrom(report().fact('佣金比例'), clock(turn.start)).click();
    const src = await report().audio.evaluate((audio: HTMLAudioElement) => audio.src);
    assert.match(src, new RegExp(`/recording\\?token=[^#]+#t=${turn.start},${turn.end}$`));
    // The media fragment starts the call at the quote.
    await page.waitForFunction((start) => {
      const audio = document.querySelector('audio')!;
      return audio.readyState >= 1 && Math.abs(audio.currentTime - start) < 0.5;
    }, turn.start);
  });

  test('the role-play opens in the AI coach with the customer’s real objections', async () => {
    const before = fake.requests.length;
    fake.behave({ chunks: ['我担心市场下跌的风险，万一跌了怎么办？'] });
    await report().rolePlay.click();
    await page.getByText('我担心市场下跌的风险，万一跌了怎么办？').waitFor();
    await page.getByRole('status').filter({ hasText: zh('coaching.scenario.end') }).waitFor();
    assert.equal(fake.requests.length, before + 1, 'one click sent the opening message');
    const system = fake.requests.at(-1)!.body.messages![0]!.content;
    assert.ok(system.includes(TURNS[1].text) && system.includes(TURNS[3].text), 'the customer’s words went to the coach');
    assert.doesNotMatch(page.url(), /start=1/, 'a reload does not start it again');
    // Every later message of the practice keeps the coach in role.
    const composer = page.getByRole('form', { name: zh('coach.composer') });
    await composer.getByLabel(zh('coach.message')).fill('The fund is medium risk, R3. Returns are not guaranteed.');
    const [sent] = await Promise.all([page.waitForRequest('**/api/ai-chat/message'), composer.getByRole('button', { name: zh('coach.send') }).click()]);
    assert.equal(sent.postDataJSON().context.coaching_report_id, Number(reportUrl.split('/').at(-1)));
    await page.getByText('我担心市场下跌的风险，万一跌了怎么办？').nth(1).waitFor();
    await snap(page, JOURNEY, '04-role-play-zh');
  });

  test('an admin approves the draft question into the bank and rejects another with a reason', async () => {
    await logInAs('admin', ADMIN_PASSWORD);
    await new Shell(page).open('questionDrafts');
    const drafts = new ReviewPage(page, 'coaching.drafts.tableLabel');
    await drafts.row(COMMISSION_STEM).first().waitFor();
    await expectAccessible(page, 'the draft question queue');
    await snap(page, JOURNEY, '05-drafts-zh');
    const cited = await drafts.row(COMMISSION_STEM).innerText();
    assert.ok(cited.includes(zh('coaching.citation.chunk', { title: 'Steady Income Fund handbook', id: commissionChunk.id })), cited);
    await drafts.approve(COMMISSION_STEM);
    await page.getByRole('status').filter({ hasText: COMMISSION_STEM }).waitFor();
    await drafts.row(COMMISSION_STEM).first().waitFor({ state: 'detached' });
    const bank = await server.api.get('/api/exam/questions?domain=wealth', { token: server.adminToken });
    const question = bank.body.data.find((q: { stem: string }) => q.stem === COMMISSION_STEM);
    assert.ok(question, 'the approved draft is in the question bank');
    assert.deepEqual(question.options.find((o: { key: string }) => question.answer.includes(o.key)).text, '2.5%');
    await new Shell(page).open('questionBank');
    await page.getByRole('table', { name: zh('bank.questions.title') }).getByRole('row').filter({ hasText: COMMISSION_STEM }).waitFor();
    await new Shell(page).open('questionDrafts');

    const rejected = (await page.getByRole('table', { name: zh('coaching.drafts.tableLabel') }).getByRole('row').nth(1).locator('strong').first().innerText()).trim();
    await drafts.reject(rejected, 'Duplicates an existing question.');
    await drafts.showStatus('rejected');
    await drafts.row(rejected).getByText('Duplicates an existing question.').waitFor();
  });

  test('an admin finds every rep’s reports and sees the report, but not the audio while listening is off', async () => {
    await new Shell(page).open('coaching');
    const row = page.getByRole('table', { name: zh('coaching.reports.title') }).getByRole('row').filter({ hasText: 'Anna Li' });
    await expectAccessible(page, 'the coaching reports');
    await row.getByRole('link', { name: 'call.wav' }).click();
    await page.waitForURL(reportUrl); // the click starts the navigation; the new address follows
    await page.getByText(zh('coaching.player.adminListenOff')).waitFor();
    assert.equal(await report().audio.count(), 0);
    assert.equal(await report().playFrom(report().fact('佣金比例'), clock(call.turns[2]!.start)).count(), 0);
  });

  test('a mono recording on the local route says speakers were not separated', { skip: LOCAL_PATH_MISSING }, async () => {
    await fs.mkdir(path.join(server.dataDir, 'models'), { recursive: true });
    await writeTinyWhisperModel(path.join(server.dataDir, 'models', 'ggml-tiny-test.bin'));
    await server.api.put('/api/system/config', { token: server.adminToken, body: { configs: { audio_local_quality: 'fast' } } });
    const local = await server.api.post('/api/ai/routes', { token: server.adminToken, body: { kind: 'audio', name: 'Desk whisper', provider: 'local-whisper', model: 'ggml-tiny-test.bin' } });
    assert.equal(local.status, 201, local.text);
    await logInAs(rep.username, 'secret-pass');
    await new Shell(page).open('calls');
    await calls().transcribe((await callFixtures()).files['call-mono.wav']!);
    await calls().transcript.waitFor();
    await page.getByText(zh('calls.transcript.degraded')).waitFor();
    await page.getByText(/未进行说话人分离/).waitFor();
    await page.getByText(zh('calls.transcript.route', { name: 'Desk whisper' })).waitFor();
    await page.getByText(zh('calls.actions.needsSpeakers')).waitFor();
    assert.equal(await calls().transcript.locator('.speaker').count(), 0, 'no made-up speakers');
    await expectAccessible(page, 'a mono transcript');
    await snap(page, JOURNEY, '06-mono-degraded-zh');
  });

  test('no script errors or failed requests', () => {
    assert.deepEqual(pageErrors, []);
  });
});
