// A hidden answer key in the trainee's UI, in Chinese (issue 33, item 1; docs/api/review.md, "Hidden answer keys"): a
// trainee misses a question on a practice paper (its key shown), then on a formal paper that never shows its key.
// 今日复习 offers nothing, and 错题本 says 正确答案：暂不公开 without the explanation and without 重做此题. The review clock
// is the test-only clock file. Needs renderer/dist and Debian's /usr/bin/chromium.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import type { Browser } from 'playwright-core';
import { skipWithoutChromium } from './browser.js';
import { openSignedIn } from './signed-in.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { TestClock } from '../support/test-clock.js';
import { SpacedReviewPage } from './page-models/spaced-review-page.js';
import { Shell } from './page-models/shell.js';
import { zh } from './i18n.js';

describe('a hidden answer key in Chromium', { skip: skipWithoutChromium }, () => {
  let server: TestServer;
  let clock: TestClock;
  const browsers: Browser[] = [];
  const suffix = crypto.randomBytes(3).toString('hex');
  const explanation = `认购期内不得承诺收益（${suffix}）。`;
  const stem = `认购期内可以向客户承诺预期收益（${suffix}）。`;
  let employee: { username: string; token: string };

  before(async () => {
    clock = TestClock.start();
    server = await startTestServer();
    const admin = { token: server.adminToken };
    const domain = `密卷-${suffix}`;
    const created = async (p: string, body: Record<string, unknown>) => {
      const res = await server.api.post(p, { ...admin, body });
      assert.equal(res.status, 201, res.text);
      return res.body.data as { id: number };
    };
    await created('/api/exam/questions', { domain, type: 'true_false', stem, explanation, options: [{ key: 'true', text: '正确' }, { key: 'false', text: '错误' }], answer: ['false'] });
    const paper = (name: string, show_answers: string) => created('/api/exam/papers', { name: `${name} ${suffix}`, type: 'formal', domain, question_count: 1, total_score: 100, pass_score: 60, duration_minutes: 10, show_answers });
    const practice = await paper('练习卷', 'always');
    const formal = await paper('认证考试', 'never');
    employee = await server.user('employee', { department: '上海分行', full_name: '李小红' });

    const now = new Date();
    clock.set(now);
    for (const { id } of [practice, formal]) {
      const started = await server.api.post('/api/exam/start', { token: employee.token, body: { paper_id: id } });
      assert.equal(started.status, 200, started.text);
      const [question] = started.body.data.questions as { id: number }[];
      const submitted = await server.api.post('/api/exam/submit', { token: employee.token, body: { session_id: started.body.data.session_id, answers: { [String(question!.id)]: 'true' }, time_spent_sec: 30 } });
      assert.equal(submitted.body.data.wrong_count, 1, submitted.text);
    }
    // The card would be due by now, were its key not hidden.
    clock.set(now.getTime() + 5 * 60_000);
  });
  after(async () => {
    for (const b of browsers) await b.close();
    await server?.close();
    clock?.stop();
  });

  test('今日复习 offers nothing and 错题本 keeps the key and the explanation back', async () => {
    const { browser, page, pageErrors } = await openSignedIn(server, { username: employee.username });
    browsers.push(browser);
    const card = new SpacedReviewPage(page).homeCard();
    await card.getByText(zh('spacedReview.home.none')).waitFor();

    await new Shell(page).open('mistakes');
    const entry = page.getByRole('listitem', { name: stem });
    await entry.getByText(zh('integrity.hidden.right')).waitFor();
    assert.equal(await entry.getByRole('button', { name: zh('records.mistakes.retryOne') }).count(), 0);
    assert.equal(await page.getByText(explanation).count(), 0);
    assert.deepEqual(pageErrors, []);
  });
});
