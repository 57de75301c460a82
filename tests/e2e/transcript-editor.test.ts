// The transcript editor in headless Chromium against the real server: a rep opens a call transcribed with speakers
// A and B, names the speakers, corrects a misheard word, gives a line to the other speaker, saves (revision 2), sees
// the export buttons, and reads the editor in Chinese and in English (screenshots of both).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { assertRendererBuilt, openBrowser, skipWithoutChromium } from './browser.js';
import { startTestServer, type TestServer } from '../support/server.js';
import type { FakeModel } from '../support/fake-model.js';
import { useFakeModel } from '../api/workbench.fixtures.js';
import { form } from '../api/media-fixtures.js';
import { toneWav } from '../api/audio-fixtures.js';
import { LoginPage } from './page-models/login-page.js';
import { Shell } from './page-models/shell.js';
import { snap } from './screenshots.js';
import { en, zh } from './i18n.js';

const JOURNEY = 'transcript-editor';

describe('the transcript editor in Chromium', { skip: skipWithoutChromium }, () => {
  let server: TestServer;
  let fake: FakeModel;
  let browser: Browser;
  let page: Page;
  let rep: { username: string; token: string };
  let id = 0;

  before(async () => {
    assertRendererBuilt();
    server = await startTestServer();
    fake = await useFakeModel(server);
    const route = await server.api.post('/api/ai/routes', { token: server.adminToken, body: { kind: 'audio', name: 'Cloud STT', provider: 'openai-compatible', base_url: fake.baseUrl, model: 'whisper-1', is_local: false } });
    assert.equal(route.status, 201, route.text);
    fake.behave({
      transcription: {
        text: '您好，我是银行的理财经理。 请问定期利率是多少？ 三年期是百分之三点五。',
        language: 'zh',
        segments: [
          { start: 0, end: 3.2, text: '您好，我是银行的理财经理。', speaker: 'A' },
          { start: 3.8, end: 6.1, text: '请问定期利率是多少？', speaker: 'B' },
          { start: 6.6, end: 9.4, text: '三年期是百分之三点五。', speaker: 'B' },
        ],
      },
    });
    rep = await server.user('employee', { full_name: 'Anna Li' });
    const res = await server.api.request('POST', '/api/audio/transcribe', { token: rep.token, form: form({ speakers: 'true' }, { name: '客户通话.wav', data: toneWav(10) }) });
    assert.equal(res.status, 200, res.text);
    id = res.body.data.id;
    ({ browser, page } = await openBrowser());
    await new LoginPage(page).logInAfresh(`${server.url}/`, rep.username, 'secret-pass');
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await fake?.close();
  });

  test('name the speakers, correct a line, give a line to the other speaker, save as revision 2; in Chinese and English', async () => {
    await page.goto(`${server.url}/#/calls/${id}`);
    await page.getByRole('button', { name: zh('transcript.editor.title') }).click();
    const editor = page.getByRole('table', { name: zh('transcript.editor.title') });
    await editor.waitFor();
    await page.getByLabel(zh('transcript.editor.speakerName', { label: 'A' })).fill('王经理');
    await page.getByLabel(zh('transcript.editor.speakerName', { label: 'B' })).fill('李女士');
    await page.getByLabel(`${zh('transcript.editor.text')} 0:03`).fill('请问定期存款利率是多少？');
    // The last line was the manager's: give it to A.
    const rows = editor.locator('tbody tr');
    await rows.nth(2).getByRole('combobox').click();
    await page.locator('.ant-select-dropdown:visible').getByTitle('王经理').click();
    await page.getByRole('region', { name: zh('transcript.export.title') }).waitFor();
    await snap(page, JOURNEY, 'editor-zh', { fullPage: true });
    await page.getByRole('button', { name: zh('transcript.editor.save') }).click();
    await page.getByText(zh('transcript.editor.saved', { revision: 2 })).waitFor();

    const saved = await server.api.get(`/api/audio/transcriptions/${id}`, { token: rep.token });
    assert.equal(saved.body.data.revision, 2);
    assert.deepEqual(saved.body.data.speaker_names, { A: '王经理', B: '李女士' });
    assert.deepEqual(
      saved.body.data.segments.map((s: { speaker: string; text: string }) => [s.speaker, s.text]),
      [
        ['A', '您好，我是银行的理财经理。'],
        ['B', '请问定期存款利率是多少？'],
        ['A', '三年期是百分之三点五。'],
      ],
    );
    const original = await server.api.get(`/api/audio/transcriptions/${id}?revision=1`, { token: rep.token });
    assert.equal(original.body.data.segments[1].text, '请问定期利率是多少？', 'revision 1 is kept as recognised');

    await new Shell(page).switchTo('en');
    await page.getByRole('button', { name: en('transcript.editor.save') }).waitFor();
    await page.getByRole('button', { name: en('transcript.export.docx') }).waitFor();
    await snap(page, JOURNEY, 'editor-en', { fullPage: true });
    assert.ok(path.isAbsolute(server.dataDir));
  });
});
