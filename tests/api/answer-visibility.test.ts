// Issue 33, item 1: no path shows a hidden answer key. For each show_answers value a trainee fails a paper and walks
// everything they can reach — the submit result, the record, the session's explanations, the mistake book and its
// retry, the review queue, a card, an answer to it, the due self-test and its result, their coaching practice items —
// before the key may be shown (nothing of it anywhere) and after (shown as usual). Issue 34: twenty identical review
// answers at once count once; a card that is not due is 409 review.not_due.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';
import { TestClock } from '../support/test-clock.js';
import { until } from '../support/until.js';
import type { AnswerValue, ExamRecordDetail, Question, StartedExam, SubmitResult } from '../../contract/exams.js';
import type { CardSummary, ReviewAnswerResult, ReviewQueue } from '../../contract/review.js';
import { addPaper, addQuestion, answerSheet, correctAnswer, questionBody, start, submit, uniqueDomain, wrongAnswer } from './exams-fixtures.js';

let ts: TestServer;
let clock: TestClock;
// The review clock: each look is a few minutes after the last answers, when their cards are due.
let reviewAt = Date.now();
const later = (minutes: number) => {
  reviewAt += minutes * 60_000;
  clock.set(new Date(reviewAt));
};

before(async () => {
  clock = TestClock.start(new Date(reviewAt));
  ts = await startTestServer();
});
after(async () => {
  await ts?.close();
  clock?.stop();
});

interface Trainee {
  id: number;
  token: string;
}

/** Three questions (single, multiple, true/false), each with an explanation found nowhere else. */
async function bankOf(label: string): Promise<Question[]> {
  const domain = uniqueDomain(label);
  const types: Question['type'][] = ['single', 'multiple', 'true_false'];
  const bank: Question[] = [];
  for (const [i, type] of types.entries()) bank.push(await addQuestion(ts, questionBody(domain, type, { explanation: `解析-${domain}-${i}` })));
  return bank;
}

const emptyOf = (q: Question): AnswerValue => (q.type === 'multiple' ? [] : '');
const keyOf = (q: Question): AnswerValue => correctAnswer(q);

/** Every explanation of the bank that appears in a response body. */
const explanationsIn = (body: unknown, bank: Question[]): string[] => bank.map((q) => q.explanation).filter((text) => JSON.stringify(body).includes(text));

async function get<T>(token: string, path: string, status = 200): Promise<T> {
  const res = await ts.api.get(path, { token });
  assert.equal(res.status, status, `${path}: ${res.text}`);
  return res.body.data as T;
}

const attempt = async (me: Trainee, paperId: number, bank: Question[], right: (id: number) => boolean): Promise<{ started: StartedExam; result: SubmitResult }> => {
  const started = await start(ts, me.token, paperId);
  return { started, result: await submit(ts, me.token, started.session_id, answerSheet(started.questions, bank, right)) };
};

/** The trainee's cards of the bank's questions, by question id, once they exist (a review read applies what is pending). */
async function cardsOf(me: Trainee, bank: Question[]): Promise<Map<number, number>> {
  const rows = () => ts.server.db('review_cards').where({ user_id: me.id }).whereIn('question_id', bank.map((q) => q.id)).select('id', 'question_id') as Promise<{ id: number; question_id: number }[]>;
  await until(async () => {
    await ts.api.get('/api/review/queue', { token: me.token });
    return (await rows()).length === bank.length;
  }, 'a card per wrong answer');
  return new Map((await rows()).map((r) => [Number(r.question_id), Number(r.id)]));
}

/** Nothing the trainee can reach gives the key of the bank's questions (the cards exist: they are held back, not missing). */
async function assertHiddenEverywhere(me: Trainee, bank: Question[], sessions: string[], cards: Map<number, number>, what: string) {
  const seen: unknown[] = [];
  const questionIds = new Set(bank.map((q) => q.id));
  for (const sessionId of sessions) {
    const record = await get<ExamRecordDetail>(me.token, `/api/exam/record/${sessionId}`);
    for (const d of record.detail) {
      assert.deepEqual(d.correct_answer, emptyOf(bank.find((q) => q.id === d.question_id)!), `${what}: record`);
      assert.ok(!('explanation' in d) || !d.explanation, `${what}: record explanation`);
    }
    assert.deepEqual(await get(me.token, `/api/exam/sessions/${sessionId}/explanations`), [], `${what}: explanations`);
    seen.push(record);
  }

  const queue = await get<ReviewQueue>(me.token, '/api/review/queue');
  assert.deepEqual(queue.items.filter((i) => questionIds.has(i.question?.id ?? 0)), [], `${what}: queue items`);
  assert.equal(queue.due_count, 0, `${what}: nothing due shown on the home page`);
  seen.push(queue);
  for (const [questionId, cardId] of cards) {
    const read = await ts.api.get(`/api/review/cards/${cardId}`, { token: me.token });
    assert.equal(read.status, 404, `${what}: card read ${read.text}`);
    const q = bank.find((b) => b.id === questionId)!;
    const answered = await ts.api.post('/api/review/answers', { token: me.token, body: { card_id: cardId, answer: wrongAnswer(q) } });
    assert.equal(answered.status, 404, `${what}: review answer ${answered.text}`);
    seen.push(read.body, answered.body);
  }
  const selfTest = await ts.api.post('/api/review/self-test', { token: me.token, body: {} });
  assert.equal(selfTest.status, 409, `${what}: self-test ${selfTest.text}`);
  assert.equal(selfTest.body.error, 'review.nothing_due');

  const mistakes = await get<{ items: { question_id: number; correct_answer: AnswerValue; explanation: string }[] }>(me.token, '/api/exam/mistakes?size=100');
  for (const entry of mistakes.items.filter((m) => questionIds.has(m.question_id))) {
    assert.deepEqual(entry.correct_answer, emptyOf(bank.find((q) => q.id === entry.question_id)!), `${what}: mistake book`);
  }
  const retry = await ts.api.post('/api/exam/mistakes/retry', { token: me.token, body: {} });
  if (retry.status === 200) assert.deepEqual((retry.body.data as StartedExam).questions.filter((q) => questionIds.has(q.id)), [], `${what}: retry`);
  else assert.equal(retry.status, 409, retry.text);
  seen.push(mistakes, retry.body, await get(me.token, '/api/coaching/review-items'));
  assert.deepEqual(explanationsIn(seen, bank), [], `${what}: an explanation reached the trainee`);
}

/** The key is shown as for any paper: records, explanations, the queue, cards, an answer, the self-test's result. */
async function assertShownEverywhere(me: Trainee, bank: Question[], sessions: string[], cards: Map<number, number>, what: string) {
  const questionIds = new Set(bank.map((q) => q.id));
  for (const sessionId of sessions) {
    const record = await get<ExamRecordDetail>(me.token, `/api/exam/record/${sessionId}`);
    for (const d of record.detail) {
      const q = bank.find((b) => b.id === d.question_id)!;
      assert.deepEqual(d.correct_answer, keyOf(q), `${what}: record`);
      assert.equal(d.explanation, q.explanation);
    }
    const explained = await get<{ question_id: number; explanation: string }[]>(me.token, `/api/exam/sessions/${sessionId}/explanations`);
    assert.deepEqual(explained.map((e) => e.explanation).sort(), bank.map((q) => q.explanation).sort(), `${what}: explanations`);
  }

  const queue = await get<ReviewQueue>(me.token, '/api/review/queue');
  assert.deepEqual(queue.items.filter((i) => questionIds.has(i.question?.id ?? 0)).map((i) => i.card_id).sort(), [...cards.values()].sort(), `${what}: queue`);
  for (const cardId of cards.values()) assert.equal((await get<CardSummary>(me.token, `/api/review/cards/${cardId}`)).id, cardId);

  // One card answered in review: its key and explanation come back, once.
  const [first] = bank;
  const reviewed = await ts.api.post('/api/review/answers', { token: me.token, body: { card_id: cards.get(first!.id), answer: correctAnswer(first!) } });
  assert.equal(reviewed.status, 200, reviewed.text);
  const answer = reviewed.body.data as ReviewAnswerResult;
  assert.deepEqual([answer.correct, answer.correct_answer, answer.explanation], [true, keyOf(first!), first!.explanation], what);

  // The others as a self-test: its result shows their keys.
  const selfTest = await ts.api.post('/api/review/self-test', { token: me.token, body: {} });
  assert.equal(selfTest.status, 200, selfTest.text);
  const paper = selfTest.body.data as StartedExam;
  assert.deepEqual(paper.questions.map((q) => q.id).sort(), bank.slice(1).map((q) => q.id).sort(), `${what}: self-test`);
  const tested = await submit(ts, me.token, paper.session_id, answerSheet(paper.questions, bank, () => false));
  for (const d of tested.detail) assert.deepEqual(d.correct_answer, keyOf(bank.find((q) => q.id === d.question_id)!), `${what}: self-test result`);
  const explained = await get<{ explanation: string }[]>(me.token, `/api/exam/sessions/${paper.session_id}/explanations`);
  assert.deepEqual(explained.map((e) => e.explanation).sort(), bank.slice(1).map((q) => q.explanation).sort());
}

describe('a hidden answer key stays hidden on every path', () => {
  test('always: shown from the first submit, in review too', async () => {
    const bank = await bankOf('always');
    const paper = await addPaper(ts, { domain: bank[0]!.domain, question_count: 3, show_answers: 'always' });
    const me = await ts.user();
    const { started, result } = await attempt(me, paper.id, bank, () => false);
    for (const d of result.detail) assert.deepEqual(d.correct_answer, keyOf(bank.find((q) => q.id === d.question_id)!));
    later(2);
    await assertShownEverywhere(me, bank, [started.session_id], await cardsOf(me, bank), 'always');
  });

  test('never: hidden after every attempt, whatever the trainee does; an admin reads the card', async () => {
    const bank = await bankOf('never');
    const paper = await addPaper(ts, { domain: bank[0]!.domain, question_count: 3, show_answers: 'never', max_attempts: 2 });
    const me = await ts.user();
    const one = await attempt(me, paper.id, bank, () => false);
    for (const d of one.result.detail) assert.deepEqual(d.correct_answer, emptyOf(bank.find((q) => q.id === d.question_id)!));
    const cards = await cardsOf(me, bank);
    later(2);
    await assertHiddenEverywhere(me, bank, [one.started.session_id], cards, 'never, first attempt');
    const two = await attempt(me, paper.id, bank, () => false);
    later(2);
    await assertHiddenEverywhere(me, bank, [one.started.session_id, two.started.session_id], cards, 'never, attempts used up');
    for (const cardId of cards.values()) assert.equal((await get<CardSummary>(ts.adminToken, `/api/review/cards/${cardId}`)).id, cardId);
  });

  test('after_pass: hidden until the trainee passes, then the first attempt is reviewed as usual', async () => {
    const bank = await bankOf('after_pass');
    const paper = await addPaper(ts, { domain: bank[0]!.domain, question_count: 3, show_answers: 'after_pass', pass_score: 60 });
    const me = await ts.user();
    const failed = await attempt(me, paper.id, bank, () => false);
    assert.equal(failed.result.passed, false);
    const cards = await cardsOf(me, bank);
    later(2);
    await assertHiddenEverywhere(me, bank, [failed.started.session_id], cards, 'after_pass, failed');
    // Passed with two of three right (the cards then not due: a right answer to them changes nothing). The review
    // clock goes back to when they were made for that, and forward again after.
    const opened = await start(ts, me.token, paper.id);
    await assertHiddenEverywhere(me, bank, [failed.started.session_id], cards, 'after_pass, second attempt open');
    later(-4);
    const passed = await submit(ts, me.token, opened.session_id, answerSheet(opened.questions, bank, (id) => id !== bank[2]!.id));
    assert.equal(passed.passed, true);
    later(10);
    await assertShownEverywhere(me, bank, [failed.started.session_id], cards, 'after_pass, passed');
  });

  test('after_last_attempt: hidden while an attempt remains or is open, shown once the last is submitted', async () => {
    const bank = await bankOf('after_last');
    const paper = await addPaper(ts, { domain: bank[0]!.domain, question_count: 3, show_answers: 'after_last_attempt', max_attempts: 2 });
    const me = await ts.user();
    const one = await attempt(me, paper.id, bank, () => false);
    const cards = await cardsOf(me, bank);
    later(2);
    await assertHiddenEverywhere(me, bank, [one.started.session_id], cards, 'after_last_attempt, one left');
    const last = await start(ts, me.token, paper.id);
    await assertHiddenEverywhere(me, bank, [one.started.session_id], cards, 'after_last_attempt, the last open');
    await submit(ts, me.token, last.session_id, answerSheet(last.questions, bank, () => false));
    later(2);
    await assertShownEverywhere(me, bank, [one.started.session_id, last.session_id], cards, 'after_last_attempt, all used');
  });

  test('a question met on a paper that hides its key is hidden in the mistake book and retries from other papers too', async () => {
    const bank = await bankOf('shared');
    const practice = await addPaper(ts, { domain: bank[0]!.domain, question_count: 3, show_answers: 'always' });
    const formal = await addPaper(ts, { domain: bank[0]!.domain, question_count: 3, show_answers: 'never' });
    const me = await ts.user();
    const practised = await attempt(me, practice.id, bank, () => false);
    const before = await get<{ items: { question_id: number; correct_answer: AnswerValue }[] }>(me.token, '/api/exam/mistakes?size=100');
    assert.equal(before.items.length, 3);
    assert.ok(before.items.every((m) => JSON.stringify(m.correct_answer) !== JSON.stringify(emptyOf(bank.find((q) => q.id === m.question_id)!))));
    await attempt(me, formal.id, bank, () => false);
    const cards = await cardsOf(me, bank);
    later(2);
    await assertHiddenEverywhere(me, bank, [], cards, 'met on a hiding paper');
    const record = await get<ExamRecordDetail>(me.token, `/api/exam/record/${practised.started.session_id}`);
    for (const d of record.detail) assert.deepEqual(d.correct_answer, emptyOf(bank.find((q) => q.id === d.question_id)!), 'the practice record');
    const retry = await ts.api.post('/api/exam/mistakes/retry', { token: me.token, body: {} });
    assert.equal(retry.status, 409, retry.text);
  });
});

describe('review answers count once', () => {
  test('twenty identical answers at once: one counts (reps +1), the others are 409 review.not_due; so is a card not due', async () => {
    const bank = [await addQuestion(ts, questionBody(uniqueDomain('once'), 'single'))];
    const paper = await addPaper(ts, { domain: bank[0]!.domain, question_count: 1 });
    const me = await ts.user();
    await attempt(me, paper.id, bank, () => false);
    const cardId = (await cardsOf(me, bank)).get(bank[0]!.id)!;
    const early = await ts.api.post('/api/review/answers', { token: me.token, body: { card_id: cardId, answer: correctAnswer(bank[0]!) } });
    assert.equal(early.status, 409, early.text);
    assert.equal(early.body.error, 'review.not_due');
    later(2);
    const before = await get<CardSummary>(me.token, `/api/review/cards/${cardId}`);

    const answers = await Promise.all(
      Array.from({ length: 20 }, () => ts.api.post('/api/review/answers', { token: me.token, body: { card_id: cardId, answer: correctAnswer(bank[0]!) } })),
    );
    const statuses = answers.map((a) => a.status).sort();
    assert.deepEqual(statuses, [200, ...Array<number>(19).fill(409)], answers.map((a) => a.text).join('\n'));
    assert.ok(answers.filter((a) => a.status === 409).every((a) => a.body.error === 'review.not_due'));
    const afterwards = await get<CardSummary>(me.token, `/api/review/cards/${cardId}`);
    assert.equal(afterwards.reps, before.reps + 1);
    const counted = await ts.server.db('review_log').where({ card_id: cardId, origin: 'review' }).count({ n: '*' }).first();
    assert.equal(Number(counted!.n), 1);
    const queue = await get<ReviewQueue>(me.token, '/api/review/queue');
    assert.equal(queue.reviewed_today, 1);
  });
});
