// Mistake book: wrong answers of formal exams and self-tests enter it; list, remove, retry, mastering.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';
import type { MistakeEntry, Question } from '../../contract/exams.js';
import { addPaper, addQuestions, allRight, answerSheet, correctAnswer, start, submit, uniqueDomain, wrongAnswer } from './exams-fixtures.js';

let ts: TestServer;

before(async () => {
  ts = await startTestServer();
});
after(() => ts.close());

async function mistakes(token: string, query = ''): Promise<{ items: MistakeEntry[]; total: number }> {
  const res = await ts.api.get(`/api/exam/mistakes?size=200${query}`, { token });
  assert.equal(res.status, 200, res.text);
  return res.body.data;
}

/** A user who got everything but the first question right on a formal exam over a 4-question domain. */
async function userWithMistakes(type: 'formal' | 'self_test' = 'formal') {
  const me = await ts.user();
  const domain = uniqueDomain('mistakes');
  const bank = await addQuestions(ts, domain, 4);
  const paper = await addPaper(ts, { domain, question_count: 4, type });
  const session = await start(ts, me.token, paper.id);
  const wrongIds = new Set([bank[0]!.id, bank[1]!.id]);
  await submit(ts, me.token, session.session_id, answerSheet(session.questions, bank, (id) => !wrongIds.has(id)));
  return { me, bank, paper, domain };
}

describe('mistake book', () => {
  test('requires a token', async () => {
    assert.equal((await ts.api.get('/api/exam/mistakes')).status, 401);
    assert.equal((await ts.api.delete('/api/exam/mistakes/1')).status, 401);
    assert.equal((await ts.api.post('/api/exam/mistakes/retry', { body: {} })).status, 401);
  });

  test('wrong answers of a formal exam enter the book with the wrong answer and a count', async () => {
    const { me, bank, paper } = await userWithMistakes();
    const book = await mistakes(me.token);
    assert.equal(book.total, 2);
    const entry = book.items.find((m) => m.question_id === bank[0]!.id)!;
    assert.deepEqual(entry.last_wrong_answer, wrongAnswer(bank[0]!));
    assert.deepEqual(entry.correct_answer, correctAnswer(bank[0]!));
    assert.equal(entry.wrong_count, 1);
    assert.equal(entry.mastered, false);
    assert.equal(entry.last_source, 'formal');
    assert.equal(entry.stem, bank[0]!.stem);
    assert.equal(entry.explanation, bank[0]!.explanation);
    assert.equal(entry.question_status, 'active');

    const session = await start(ts, me.token, paper.id);
    await submit(ts, me.token, session.session_id, { [bank[0]!.id]: wrongAnswer(bank[0]!) });
    const after = await mistakes(me.token);
    assert.equal(after.total, 4, 'unanswered questions count as wrong');
    const again = after.items.find((m) => m.question_id === bank[0]!.id)!;
    assert.equal(again.wrong_count, 2);
    assert.equal(again.id, entry.id, 'one entry per question');
  });

  test('self-test mistakes enter the book too', async () => {
    const { me, bank } = await userWithMistakes('self_test');
    const book = await mistakes(me.token);
    assert.deepEqual(book.items.map((m) => m.question_id).sort(), [bank[0]!.id, bank[1]!.id].sort());
    assert.ok(book.items.every((m) => m.last_source === 'self_test'));
  });

  test('an entry can be removed by its owner only', async () => {
    const { me } = await userWithMistakes();
    const other = await ts.user();
    const [entry] = (await mistakes(me.token)).items;
    const foreign = await ts.api.delete(`/api/exam/mistakes/${entry!.id}`, { token: other.token });
    assert.equal(foreign.status, 404);
    const removed = await ts.api.delete(`/api/exam/mistakes/${entry!.id}`, { token: me.token });
    assert.equal(removed.status, 200);
    assert.deepEqual(removed.body.data, { id: entry!.id, deleted: true });
    assert.equal((await mistakes(me.token)).total, 1);
    assert.equal((await ts.api.delete(`/api/exam/mistakes/${entry!.id}`, { token: me.token })).status, 404);
    assert.equal((await ts.api.delete('/api/exam/mistakes/abc', { token: me.token })).status, 400);
  });

  test('retry issues the unmastered mistakes; right answers master them, wrong ones count up', async () => {
    const { me, bank } = await userWithMistakes();
    const res = await ts.api.post('/api/exam/mistakes/retry', { token: me.token, body: {} });
    assert.equal(res.status, 200, res.text);
    const retry = res.body.data;
    assert.equal(retry.kind, 'retry');
    assert.equal(retry.paper_id, null);
    assert.deepEqual(retry.questions.map((q: { id: number }) => q.id).sort(), [bank[0]!.id, bank[1]!.id].sort());
    assert.ok(!JSON.stringify(retry.questions).includes('explanation'));
    assert.equal(retry.time_limit_min, 4);

    const result = await submit(ts, me.token, retry.session_id, answerSheet(retry.questions, bank, (id) => id === bank[0]!.id));
    assert.equal(result.kind, 'retry');
    assert.equal(result.record_id, null, 'a retry is not an exam record');
    assert.equal(result.correct_count, 1);
    const book = await mistakes(me.token);
    const first = book.items.find((m) => m.question_id === bank[0]!.id)!;
    const second = book.items.find((m) => m.question_id === bank[1]!.id)!;
    assert.equal(first.mastered, true);
    assert.ok(first.mastered_at);
    assert.equal(second.mastered, false);
    assert.equal(second.wrong_count, 2);
    assert.equal(second.last_source, 'retry');
    assert.equal((await mistakes(me.token, '&mastered=true')).total, 1);
    assert.equal((await mistakes(me.token, '&mastered=false')).total, 1);
    assert.equal((await ts.api.get('/api/exam/record', { token: me.token })).body.data.total, 1, 'only the formal exam is recorded');

    const next = (await ts.api.post('/api/exam/mistakes/retry', { token: me.token, body: {} })).body.data;
    assert.deepEqual(next.questions.map((q: { id: number }) => q.id), [bank[1]!.id], 'mastered entries are not retried');
    const done = await submit(ts, me.token, next.session_id, allRight(next.questions, bank));
    assert.equal(done.passed, true);
    const empty = await ts.api.post('/api/exam/mistakes/retry', { token: me.token, body: {} });
    assert.equal(empty.status, 409);
    assert.equal(empty.body.error, 'exam.nothing_to_retry');
  });

  test('retry skips disabled questions and honours question_ids, domain and limit', async () => {
    const { me, bank, domain } = await userWithMistakes();
    await ts.api.delete(`/api/exam/questions/${bank[0]!.id}`, { token: ts.adminToken });
    const retry = (await ts.api.post('/api/exam/mistakes/retry', { token: me.token, body: {} })).body.data;
    assert.deepEqual(retry.questions.map((q: Question) => q.id), [bank[1]!.id]);
    const listed = (await mistakes(me.token)).items.find((m) => m.question_id === bank[0]!.id)!;
    assert.equal(listed.question_status, 'disabled', 'the entry stays listed');

    await ts.api.put(`/api/exam/questions/${bank[0]!.id}`, { token: ts.adminToken, body: { status: 'active' } });
    const chosen = (await ts.api.post('/api/exam/mistakes/retry', { token: me.token, body: { question_ids: [bank[0]!.id] } })).body.data;
    assert.deepEqual(chosen.questions.map((q: Question) => q.id), [bank[0]!.id]);
    const limited = (await ts.api.post('/api/exam/mistakes/retry', { token: me.token, body: { limit: 1 } })).body.data;
    assert.equal(limited.questions.length, 1);
    const elsewhere = await ts.api.post('/api/exam/mistakes/retry', { token: me.token, body: { domain: `${domain}_none` } });
    assert.equal(elsewhere.status, 409);
    assert.equal((await mistakes(me.token, `&domain=${domain}`)).total, 2);
    for (const body of [{ limit: 0 }, { limit: 'all' }, { question_ids: [] }, { question_ids: ['x'] }]) {
      assert.equal((await ts.api.post('/api/exam/mistakes/retry', { token: me.token, body })).status, 400, JSON.stringify(body));
    }
    assert.equal((await ts.api.get('/api/exam/mistakes?mastered=maybe', { token: me.token })).status, 400);
  });
});
