// Spaced review in Chromium, in Chinese: the home page's "今日复习 N 题" card, a review session (answer, explanation,
// the next due date at the end) and the admins' statistics with the reviews-per-day chart. The review clock is the
// test-only clock file (server/clock.ts). Needs renderer/dist and Debian's /usr/bin/chromium.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import type { Browser } from 'playwright-core';
import { skipWithoutChromium } from './browser.js';
import { openSignedIn } from './signed-in.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { TestClock } from '../support/test-clock.js';
import { SpacedReviewPage } from './page-models/spaced-review-page.js';
import { snap } from './screenshots.js';
import { zh } from './i18n.js';

const JOURNEY = 'spaced-review';

describe('spaced review in Chromium', { skip: skipWithoutChromium }, () => {
  let server: TestServer;
  let clock: TestClock;
  const browsers: Browser[] = [];
  const suffix = crypto.randomBytes(3).toString('hex');
  const explanation = `不得向客户承诺保本保收益（${suffix}）。`;
  let employee: { username: string; token: string };

  before(async () => {
    clock = TestClock.start();
    server = await startTestServer();
    const admin = { token: server.adminToken };
    const domain = `复习-${suffix}`;
    const created = async (p: string, body: Record<string, unknown>) => {
      const res = await server.api.post(p, { ...admin, body });
      assert.equal(res.status, 201, res.text);
      return res.body.data as { id: number };
    };
    await created('/api/exam/questions', {
      domain, type: 'single', stem: `向客户介绍理财产品时，哪种说法合规？（${suffix}）`, explanation,
      options: [{ key: 'A', text: '保证本金不亏' }, { key: 'B', text: '过往业绩不代表未来表现' }, { key: 'C', text: '年化收益肯定超过 5%' }], answer: ['B'],
    });
    await created('/api/exam/questions', { domain, type: 'true_false', stem: `客户风险承受能力评估每年至少做一次（${suffix}）。`, explanation: '按监管要求定期评估。', options: [{ key: 'true', text: '正确' }, { key: 'false', text: '错误' }], answer: ['true'] });
    const paper = await created('/api/exam/papers', { name: `合规测验 ${suffix}`, type: 'formal', domain, question_count: 2, total_score: 100, pass_score: 60, duration_minutes: 10 });
    employee = await server.user('employee', { department: '上海分行', full_name: '王小明' });

    // The employee fails the exam: two cards, due a minute later; the clock moves five minutes on.
    const now = new Date();
    clock.set(now);
    const started = await server.api.post('/api/exam/start', { token: employee.token, body: { paper_id: paper.id } });
    assert.equal(started.status, 200, started.text);
    const wrong = Object.fromEntries((started.body.data.questions as { id: number; type: string }[]).map((q) => [String(q.id), q.type === 'single' ? 'A' : 'false']));
    const submitted = await server.api.post('/api/exam/submit', { token: employee.token, body: { session_id: started.body.data.session_id, answers: wrong, time_spent_sec: 60 } });
    assert.equal(submitted.body.data.wrong_count, 2, submitted.text);
    clock.set(now.getTime() + 5 * 60_000);
  });
  after(async () => {
    for (const b of browsers) await b.close();
    await server?.close();
    clock?.stop();
  });

  test('the home card shows today\'s review; a session answers both cards and ends with the next due date', async () => {
    const { browser, page, pageErrors } = await openSignedIn(server, { username: employee.username });
    browsers.push(browser);
    const review = new SpacedReviewPage(page);
    const card = review.homeCard();
    await card.getByText(zh('spacedReview.home.count', { count: 2 })).waitFor();
    await card.getByText(zh('spacedReview.home.time', { minutes: 1 })).waitFor();
    await snap(page, JOURNEY, '01-home-widget');

    await card.getByRole('button', { name: zh('spacedReview.home.start') }).click();
    await page.getByRole('heading', { name: zh('spacedReview.session.title') }).waitFor();
    const first = { current: 1, total: 2 };
    await review.current(first).waitFor();
    await snap(page, JOURNEY, '02-session-question');
    // Whichever card comes first: answer it right.
    const isSingle = (await review.current(first).getByRole('radio').count()) === 3;
    await review.answer(first, isSingle ? 'B. 过往业绩不代表未来表现' : '正确');
    await review.current(first).getByText(zh('spacedReview.session.right')).waitFor();
    if (isSingle) await review.current(first).getByText(explanation).waitFor();
    await snap(page, JOURNEY, '03-session-explanation');
    await review.next(first);

    const second = { current: 2, total: 2 };
    await review.current(second).waitFor();
    // The other one wrong: Again, with its explanation.
    await review.answer(second, isSingle ? '错误' : 'A. 保证本金不亏');
    await review.current(second).getByText(zh('spacedReview.session.wrong')).waitFor();
    await review.next(second);

    await page.getByText(zh('spacedReview.session.doneTitle')).waitFor();
    await page.getByText(zh('spacedReview.session.doneSummary', { count: 2, right: 1 })).waitFor();
    const nextDue = await page.locator('.review-next-due').textContent();
    assert.ok(nextDue?.startsWith(zh('spacedReview.session.doneNext', { date: '' }).trim()), nextDue ?? '');
    await snap(page, JOURNEY, '04-session-done');

    const queue = await server.api.get('/api/review/queue', { token: employee.token });
    assert.equal(queue.body.data.reviewed_today, 2);
    assert.deepEqual(pageErrors, []);
  });

  test('admins see the statistics with reviews per day', async () => {
    const { browser, page, pageErrors } = await openSignedIn(server);
    browsers.push(browser);
    await page.goto(`${server.url}/#/admin/spaced-review`);
    await page.getByRole('heading', { name: zh('spacedReview.stats.title') }).waitFor();
    await page.getByRole('cell', { name: '上海分行' }).first().waitFor();
    await page.getByRole('cell', { name: '王小明' }).waitFor();
    await page.getByRole('figure', { name: zh('spacedReview.stats.perDay') }).locator('svg').first().waitFor();
    await snap(page, JOURNEY, '05-admin-stats', { fullPage: true });
    assert.deepEqual(pageErrors, []);
  });
});
