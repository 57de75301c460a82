// Spaced review over real HTTP (docs/api/review.md): cards from wrong answers, the FSRS schedule ts-fsrs computes
// for the same history, the queue and its daily limit, disabled questions, the self-test of due cards, ownership.
// The review clock is moved through the test-only clock file (server/clock.ts, tests/support/test-clock.ts).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createEmptyCard, fsrs, generatorParameters, Rating, type Card, type Grade } from 'ts-fsrs';
import { startTestServer, type TestServer } from '../support/server.js';
import { TestClock } from '../support/test-clock.js';
import type { Question, SubmitResult } from '../../contract/exams.js';
import type { ReviewAnswerResult, ReviewQueue, CardSummary } from '../../contract/review.js';
import { addPaper, addQuestion, answerSheet, questionBody, start, submit, uniqueDomain } from './exams-fixtures.js';

let ts: TestServer;
let clock: TestClock;
const DAY = 86_400_000;
const scheduler = fsrs(generatorParameters({ request_retention: 0.9, enable_fuzz: false }));

const setClock = (at: Date | string) => clock.set(new Date(at));
const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms);

async function ok<T>(res: { status: number; text: string; body: { data: unknown } }, status = 200): Promise<T> {
  assert.equal(res.status, status, res.text);
  return res.body.data as T;
}

const queue = (token: string) => ts.api.get('/api/review/queue', { token }).then((r) => ok<ReviewQueue>(r));
const answer = (token: string, body: Record<string, unknown>) => ts.api.post('/api/review/answers', { token, body });

/** The answer a question takes: right (its key) or wrong (another key). */
function answerOf(q: Question, right: boolean): string | string[] {
  if (q.type === 'multiple') return right ? q.answer : [q.options.find((o) => !q.answer.includes(o.key))!.key];
  return right ? q.answer[0]! : q.options.find((o) => !q.answer.includes(o.key))!.key;
}

/** Takes a formal paper of these questions and answers every one wrongly (the review clock at the real time); returns when. */
async function failPaper(token: string, domain: string, bank: Question[], count: number): Promise<{ submitted_at: string }> {
  const paper = await addPaper(ts, { name: `Paper ${domain}`, domain, question_count: count });
  const started = await start(ts, token, paper.id);
  const at = new Date().toISOString();
  setClock(at);
  const result: SubmitResult = await submit(ts, token, started.session_id, answerSheet(started.questions, bank, () => false));
  assert.equal(result.correct_count, 0);
  return { submitted_at: at };
}

/** What ts-fsrs gives for the same history, called directly. */
function expected(history: [Grade, string][]): Card {
  let card = createEmptyCard(new Date(history[0]![1]));
  for (const [grade, at] of history) card = scheduler.next(card, new Date(at), grade).card;
  return card;
}

before(async () => {
  clock = TestClock.start();
  ts = await startTestServer();
});
after(async () => {
  await ts?.close();
  clock?.stop();
});

describe('spaced review', () => {
  test('a wrong answer becomes a card due today; right moves it out by the FSRS interval; Again brings it back', async () => {
    const domain = uniqueDomain('review');
    const q = await addQuestion(ts, questionBody(domain, 'single'));
    const alice = await ts.user();
    const result = await failPaper(alice.token, domain, [q], 1);
    const t0 = result.submitted_at;

    setClock(plus(t0, 2 * 60_000));
    const first = await queue(alice.token);
    assert.equal(first.due_count, 1);
    assert.equal(first.items.length, 1);
    const item = first.items[0]!;
    assert.equal(item.question!.id, q.id);
    assert.ok(new Date(item.due).toDateString() === new Date(t0).toDateString() || Date.parse(item.due) - Date.parse(t0) < DAY, 'due today');
    assert.deepEqual(Object.keys(item.question!).sort(), ['id', 'options', 'stem', 'type'], 'never the answer');
    assert.ok(!JSON.stringify(first).includes('"answer"'));

    // Right: Good, due where ts-fsrs puts it for Again at t0 then Good now.
    const t1 = plus(t0, 2 * 60_000).toISOString();
    const right = await ok<ReviewAnswerResult>(await answer(alice.token, { card_id: item.card_id, answer: answerOf(q, true) }));
    assert.equal(right.correct, true);
    assert.equal(right.rating, 'good');
    assert.equal(right.correct_answer, 'B');
    assert.equal(right.explanation, 'Because.');
    const afterGood = expected([[Rating.Again, t0], [Rating.Good, t1]]);
    assert.equal(right.card.due, afterGood.due.toISOString());
    assert.equal(right.card.reps, afterGood.reps);
    assert.ok(Date.parse(right.card.due) > Date.parse(t1));
    assert.equal((await queue(alice.token)).items.length, 0, 'no longer due');

    // Once more right when it falls due: it moves out by days.
    const t2 = plus(right.card.due, 60_000).toISOString();
    setClock(t2);
    assert.equal((await queue(alice.token)).items.length, 1);
    const again = await ok<ReviewAnswerResult>(await answer(alice.token, { card_id: item.card_id, answer: answerOf(q, true) }));
    const afterSecond = expected([[Rating.Again, t0], [Rating.Good, t1], [Rating.Good, t2]]);
    assert.equal(again.card.due, afterSecond.due.toISOString());
    assert.equal(again.card.state, 'review');
    assert.ok(Date.parse(again.card.due) - Date.parse(t2) >= DAY);

    // Wrong when next due: Again, a lapse, due again within minutes.
    const t3 = plus(again.card.due, 60_000).toISOString();
    setClock(t3);
    const wrong = await ok<ReviewAnswerResult>(await answer(alice.token, { card_id: item.card_id, answer: answerOf(q, false) }));
    assert.equal(wrong.correct, false);
    assert.equal(wrong.rating, 'again');
    const afterAgain = expected([[Rating.Again, t0], [Rating.Good, t1], [Rating.Good, t2], [Rating.Again, t3]]);
    assert.equal(wrong.card.due, afterAgain.due.toISOString());
    assert.equal(wrong.card.state, 'relearning');
    assert.equal(wrong.card.lapses, 1);
    setClock(plus(t3, 20 * 60_000));
    assert.deepEqual((await queue(alice.token)).items.map((i) => i.card_id), [item.card_id], 'back in the queue');

    // Right long after it was due (more than twice its interval): Hard.
    const t4 = plus(t3, 20 * 60_000).toISOString();
    const relearnt = await ok<ReviewAnswerResult>(await answer(alice.token, { card_id: item.card_id, answer: answerOf(q, true) }));
    const afterRelearn = expected([[Rating.Again, t0], [Rating.Good, t1], [Rating.Good, t2], [Rating.Again, t3], [Rating.Good, t4]]);
    assert.equal(relearnt.card.due, afterRelearn.due.toISOString());
    const late = plus(t4, (2 * afterRelearn.scheduled_days + 2) * DAY).toISOString();
    setClock(late);
    const hard = await ok<ReviewAnswerResult>(await answer(alice.token, { card_id: item.card_id, answer: answerOf(q, true) }));
    assert.equal(hard.rating, 'hard');
    const afterHard = expected([[Rating.Again, t0], [Rating.Good, t1], [Rating.Good, t2], [Rating.Again, t3], [Rating.Good, t4], [Rating.Hard, late]]);
    assert.equal(hard.card.due, afterHard.due.toISOString());

    const card = await ok<CardSummary>(await ts.api.get(`/api/review/cards/${item.card_id}`, { token: alice.token }));
    assert.equal(card.question_id, q.id);
    assert.equal(card.lapses, 1);
  });

  test('exam submits move a card as replaying its whole log does, an answer from before its last review included', async () => {
    const domain = uniqueDomain('review-submits');
    const q = await addQuestion(ts, questionBody(domain, 'single'));
    const bob = await ts.user();
    const paper = await addPaper(ts, { name: `Paper ${domain}`, domain, question_count: 1 });
    const take = async (at: string, right: boolean) => {
      setClock(at);
      const started = await start(ts, bob.token, paper.id);
      const result = await submit(ts, bob.token, started.session_id, answerSheet(started.questions, [q], () => right));
      assert.equal(result.correct_count, right ? 1 : 0);
    };
    const cardNow = async (at: string): Promise<CardSummary> => {
      setClock(at);
      const due = await queue(bob.token);
      const id = due.items[0]?.card_id ?? cardId;
      return ok<CardSummary>(await ts.api.get(`/api/review/cards/${id}`, { token: bob.token }));
    };
    const same = (card: CardSummary, want: Card, label: string) => {
      assert.deepEqual(
        [card.due, card.reps, card.lapses, card.stability, card.difficulty, card.scheduled_days, card.last_review],
        [want.due.toISOString(), want.reps, want.lapses, want.stability, want.difficulty, want.scheduled_days, want.last_review!.toISOString()],
        label,
      );
    };
    let cardId = 0;

    const t0 = new Date(Date.now() - 30 * DAY).toISOString();
    await take(t0, false);
    const made = await cardNow(plus(t0, 60_000).toISOString());
    cardId = made.id;
    same(made, expected([[Rating.Again, t0]]), 'a wrong answer: Again');

    const t1 = plus(made.due, 60_000).toISOString();
    await take(t1, true);
    const good = await cardNow(t1);
    same(good, expected([[Rating.Again, t0], [Rating.Good, t1]]), 'right when due: Good');

    const t2 = plus(good.due, 60_000).toISOString();
    await take(t2, false);
    same(await cardNow(t2), expected([[Rating.Again, t0], [Rating.Good, t1], [Rating.Again, t2]]), 'wrong again: Again');

    // A submit stamped before the card's last review (a clock set back): the log is replayed in time order.
    const early = plus(t1, -30_000).toISOString();
    await take(early, false);
    same(await cardNow(t2), expected([[Rating.Again, t0], [Rating.Again, early], [Rating.Good, t1], [Rating.Again, t2]]), 'replayed in time order');
  });

  test('an edited question keeps its card; a disabled one leaves the queue and cannot be answered', async () => {
    const domain = uniqueDomain('review');
    const bank = [await addQuestion(ts, questionBody(domain, 'single')), await addQuestion(ts, questionBody(domain, 'true_false'))];
    const bob = await ts.user();
    const result = await failPaper(bob.token, domain, bank, 2);
    setClock(plus(result.submitted_at, 5 * 60_000));
    const before = await queue(bob.token);
    assert.equal(before.items.length, 2);

    const edited = await ts.api.put(`/api/exam/questions/${bank[0]!.id}`, { token: ts.adminToken, body: { ...questionBody(domain, 'single'), stem: 'Edited stem?' } });
    assert.equal(edited.status, 200, edited.text);
    const afterEdit = await queue(bob.token);
    assert.deepEqual(afterEdit.items.map((i) => i.card_id).sort(), before.items.map((i) => i.card_id).sort(), 'same cards');
    assert.equal(afterEdit.items.find((i) => i.question!.id === bank[0]!.id)!.question!.stem, 'Edited stem?');

    assert.equal((await ts.api.delete(`/api/exam/questions/${bank[1]!.id}`, { token: ts.adminToken })).status, 200);
    const afterDisable = await queue(bob.token);
    assert.deepEqual(afterDisable.items.map((i) => i.question!.id), [bank[0]!.id]);
    assert.equal(afterDisable.due_count, 1);
    const disabledCard = before.items.find((i) => i.question!.id === bank[1]!.id)!.card_id;
    const refused = await answer(bob.token, { card_id: disabledCard, answer: 'true' });
    assert.equal(refused.status, 409, refused.text);
    assert.equal(refused.body.error, 'review.question_disabled');
  });

  test('the daily limit holds: the queue gives what is left of it today', async () => {
    const domain = uniqueDomain('review');
    const bank: Question[] = [];
    for (let i = 0; i < 4; i++) bank.push(await addQuestion(ts, questionBody(domain, 'single', { stem: `Limit ${i}?` })));
    const carol = await ts.user();
    const result = await failPaper(carol.token, domain, bank, 4);
    const put = await ts.api.put('/api/system/config', { token: ts.adminToken, body: { configs: { review_daily_limit: 3 } } });
    assert.equal(put.status, 200, put.text);
    try {
      setClock(plus(result.submitted_at, 5 * 60_000));
      const first = await queue(carol.token);
      assert.equal(first.due_count, 4);
      assert.equal(first.daily_limit, 3);
      assert.equal(first.items.length, 3);
      assert.ok(first.estimated_minutes >= 1);
      for (const item of first.items.slice(0, 2)) await ok(await answer(carol.token, { card_id: item.card_id, answer: 'A' }));
      const later = await queue(carol.token);
      assert.equal(later.reviewed_today, 2);
      assert.equal(later.items.length, 1, 'one review left today');
      await ok(await answer(carol.token, { card_id: later.items[0]!.card_id, answer: 'A' }));
      const done = await queue(carol.token);
      assert.equal(done.items.length, 0);
      assert.ok(done.due_count >= 1, 'still due, but not today');
    } finally {
      await ts.api.put('/api/system/config', { token: ts.adminToken, body: { configs: { review_daily_limit: 30 } } });
    }
  });

  test('a self-test generated from the due cards contains the due questions and moves their cards', async () => {
    const domain = uniqueDomain('review');
    const bank = [await addQuestion(ts, questionBody(domain, 'single')), await addQuestion(ts, questionBody(domain, 'multiple')), await addQuestion(ts, questionBody(domain, 'true_false'))];
    const dave = await ts.user();
    assert.equal((await ts.api.post('/api/review/self-test', { token: dave.token, body: {} })).body.error, 'review.nothing_due');
    const result = await failPaper(dave.token, domain, bank, 3);
    setClock(plus(result.submitted_at, 5 * 60_000));
    const due = await queue(dave.token);
    const paper = await ok<{ session_id: string; kind: string; questions: { id: number; options: unknown[] }[] }>(await ts.api.post('/api/review/self-test', { token: dave.token, body: {} }));
    assert.equal(paper.kind, 'self_test');
    assert.deepEqual(paper.questions.map((q) => q.id).sort(), due.items.map((i) => i.question!.id).sort());
    assert.ok(!JSON.stringify(paper).includes('"answer"'));
    // All right: each due card gets a review (it leaves the queue).
    const sheet = Object.fromEntries(bank.map((q) => [String(q.id), answerOf(q, true)]));
    const res = await ts.api.post('/api/exam/submit', { token: dave.token, body: { session_id: paper.session_id, answers: sheet, time_spent_sec: 20 } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.correct_count, 3);
    assert.equal((await queue(dave.token)).items.length, 0);
  });

  test('cards are their owner\'s: another person gets 404; errors have codes', async () => {
    const domain = uniqueDomain('review');
    const q = await addQuestion(ts, questionBody(domain, 'single'));
    const erin = await ts.user();
    const frank = await ts.user();
    const result = await failPaper(erin.token, domain, [q], 1);
    setClock(plus(result.submitted_at, 5 * 60_000));
    const cardId = (await queue(erin.token)).items[0]!.card_id;
    assert.equal((await ts.api.get(`/api/review/cards/${cardId}`, { token: frank.token })).status, 404);
    const foreign = await answer(frank.token, { card_id: cardId, answer: 'B' });
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.error, 'not_found');
    assert.equal((await queue(frank.token)).items.length, 0);
    assert.equal((await ts.api.get('/api/review/queue')).status, 401);
    assert.equal((await ts.api.get('/api/review/stats', { token: frank.token })).status, 403);
    assert.equal((await answer(erin.token, { card_id: 'x' })).status, 400);
    const noAnswer = await answer(erin.token, { card_id: cardId });
    assert.equal(noAnswer.status, 400);
    assert.equal(noAnswer.body.error, 'review.question_needs_answer');
    assert.equal((await answer(erin.token, { card_id: 2_000_000_000, answer: 'B' })).status, 404);
  });

  test('admins see due and overdue cards per department and person, weakest questions and domains, reviews per day', async () => {
    const domain = uniqueDomain('review');
    const q = await addQuestion(ts, questionBody(domain, 'single'));
    const department = `Dept ${domain}`;
    const gina = await ts.user('employee', { department });
    const result = await failPaper(gina.token, domain, [q], 1);
    setClock(plus(result.submitted_at, 5 * 60_000));
    const cardId = (await queue(gina.token)).items[0]!.card_id;
    await ok(await answer(gina.token, { card_id: cardId, answer: 'B' }));
    setClock(plus(result.submitted_at, 30 * DAY));
    const stats = await ok<import('../../contract/review.js').ReviewStats>(await ts.api.get(`/api/review/stats?department=${encodeURIComponent(department)}&days=40`, { token: ts.adminToken }));
    assert.equal(stats.departments.length, 1);
    const dept = stats.departments[0]!;
    assert.equal(dept.department, department);
    assert.equal(dept.cards, 1);
    assert.equal(dept.due, 1);
    assert.equal(dept.overdue, 1);
    assert.equal(dept.weakest_questions[0]!.question_id, q.id);
    assert.ok(dept.weakest_questions[0]!.retrievability > 0 && dept.weakest_questions[0]!.retrievability < 0.9);
    assert.equal(dept.weakest_domains[0]!.domain, domain);
    assert.equal(stats.people[0]!.username, gina.username);
    assert.equal(stats.reviews_per_day.length, 40);
    assert.equal(stats.reviews_per_day.reduce((n, d) => n + d.reviews, 0), 1);
    assert.equal((await ts.api.get('/api/review/stats?days=0', { token: ts.adminToken })).status, 400);
  });
});
