// Exam integrity (issue 25 B): when the answer key is shown (show_answers), the paper's window, a pool drawn per
// attempt, options shuffled per attempt and graded right, and the leave count on the record.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';
import type { AnswerMap, AnswerValue, ExamRecordDetail, IssuedQuestion, Question, SubmitResult } from '../../contract/exams.js';
import { addPaper, addQuestion, addQuestions, allRight, answerSheet, questionBody, start, submit, uniqueDomain } from './exams-fixtures.js';

let ts: TestServer;

before(async () => {
  ts = await startTestServer();
});
after(() => ts.close());

const recordDetail = async (token: string, recordId: number): Promise<ExamRecordDetail> => {
  const res = await ts.api.get(`/api/exam/record/${recordId}`, { token });
  assert.equal(res.status, 200, res.text);
  return res.body.data as ExamRecordDetail;
};
const explanations = async (token: string, sessionId: string) => {
  const res = await ts.api.get(`/api/exam/sessions/${sessionId}/explanations`, { token });
  assert.equal(res.status, 200, res.text);
  return res.body.data as { question_id: number; explanation: string }[];
};
const emptyOfType = (q: Question): AnswerValue => (q.type === 'multiple' ? [] : '');
const byId = (bank: Question[]) => new Map(bank.map((q) => [q.id, q]));

/** Three questions (single, multiple, true/false) and a formal paper over them with the given fields. */
async function paperOf(fields: Record<string, unknown>) {
  const domain = uniqueDomain('integrity');
  const bank = await addQuestions(ts, domain, 3);
  const paper = await addPaper(ts, { domain, question_count: 3, ...fields });
  return { bank, paper };
}

function assertKeyShown(detail: SubmitResult['detail'], bank: Question[]) {
  const questions = byId(bank);
  for (const d of detail) {
    const q = questions.get(d.question_id)!;
    assert.deepEqual(d.correct_answer, q.type === 'multiple' ? q.answer : q.answer[0]);
  }
}
function assertKeyHidden(detail: (SubmitResult['detail'][number] & { explanation?: string })[], bank: Question[]) {
  const questions = byId(bank);
  for (const d of detail) {
    assert.deepEqual(d.correct_answer, emptyOfType(questions.get(d.question_id)!), `question ${d.question_id}`);
    assert.equal('explanation' in d, false);
  }
}

describe('show_answers', () => {
  test('defaults to always: the key and explanations are shown, as the spec has it', async () => {
    const { bank, paper } = await paperOf({});
    assert.equal(paper.show_answers, 'always');
    assert.equal(paper.shuffle_options, false);
    assert.equal(paper.opens_at, null);
    const me = await ts.user();
    const session = await start(ts, me.token, paper.id);
    const result = await submit(ts, me.token, session.session_id, answerSheet(session.questions, bank, () => false));
    assertKeyShown(result.detail, bank);
    const record = await recordDetail(me.token, result.record_id!);
    assertKeyShown(record.detail, bank);
    assert.ok(record.detail.every((d) => d.explanation === 'Because.'));
    assert.equal((await explanations(me.token, session.session_id)).length, 3);
  });

  test('never: the candidate never sees the key (submit, replay, record, explanations, mistake book); an admin does', async () => {
    const { bank, paper } = await paperOf({ show_answers: 'never', max_attempts: 1 });
    const me = await ts.user();
    const session = await start(ts, me.token, paper.id);
    const sheet = answerSheet(session.questions, bank, () => false);
    const result = await submit(ts, me.token, session.session_id, sheet);
    assert.equal(result.correct_count, 0);
    assertKeyHidden(result.detail, bank);
    assertKeyHidden((await submit(ts, me.token, session.session_id, sheet)).detail, bank);
    const record = await recordDetail(me.token, result.record_id!);
    assertKeyHidden(record.detail, bank);
    assert.deepEqual(await explanations(me.token, session.session_id), []);
    const mistakes = await ts.api.get('/api/exam/mistakes', { token: me.token });
    assert.equal(mistakes.status, 200, mistakes.text);
    const entries = (mistakes.body.data.items ?? mistakes.body.data) as { question_id: number }[];
    assert.equal(entries.filter((m) => bank.some((q) => q.id === m.question_id)).length, 0);

    const asAdmin = await recordDetail(ts.adminToken, result.record_id!);
    assertKeyShown(asAdmin.detail, bank);
    assert.ok(asAdmin.detail.every((d) => d.explanation === 'Because.'));
    const system = await ts.api.get(`/api/system/exam-records/${result.record_id}`, { token: ts.adminToken });
    assertKeyShown((system.body.data as ExamRecordDetail).detail, bank);
  });

  test('after_pass: hidden on a failed attempt, shown once the candidate has passed (for the earlier record too)', async () => {
    const { bank, paper } = await paperOf({ show_answers: 'after_pass' });
    const me = await ts.user();
    const first = await start(ts, me.token, paper.id);
    const failed = await submit(ts, me.token, first.session_id, answerSheet(first.questions, bank, () => false));
    assert.equal(failed.passed, false);
    assertKeyHidden(failed.detail, bank);
    assertKeyHidden((await recordDetail(me.token, failed.record_id!)).detail, bank);

    const second = await start(ts, me.token, paper.id);
    const passed = await submit(ts, me.token, second.session_id, allRight(second.questions, bank));
    assert.equal(passed.passed, true);
    assertKeyShown(passed.detail, bank);
    assertKeyShown((await recordDetail(me.token, failed.record_id!)).detail, bank);
  });

  test('after_last_attempt: hidden while attempts remain, shown with the last one', async () => {
    const { bank, paper } = await paperOf({ show_answers: 'after_last_attempt', max_attempts: 2 });
    const me = await ts.user();
    const first = await start(ts, me.token, paper.id);
    const one = await submit(ts, me.token, first.session_id, answerSheet(first.questions, bank, () => false));
    assertKeyHidden(one.detail, bank);
    const second = await start(ts, me.token, paper.id);
    // The last attempt is open: the earlier record still hides the key.
    assertKeyHidden((await recordDetail(me.token, one.record_id!)).detail, bank);
    const two = await submit(ts, me.token, second.session_id, answerSheet(second.questions, bank, () => false));
    assertKeyShown(two.detail, bank);
    assertKeyShown((await recordDetail(me.token, one.record_id!)).detail, bank);
  });

  test('an unknown value is a 400', async () => {
    const res = await ts.api.post('/api/exam/papers', {
      token: ts.adminToken,
      body: { name: 'P', type: 'formal', domain: 'd', question_count: 1, total_score: 100, pass_score: 60, duration_minutes: 10, show_answers: 'sometimes' },
    });
    assert.equal(res.status, 400, res.text);
  });
});

describe('the window of a paper', () => {
  const hour = 3600_000;
  const iso = (offset: number) => new Date(Date.now() + offset).toISOString();

  test('a start before opens_at or after closes_at is a 409 with its own code; inside it starts', async () => {
    const domain = uniqueDomain('window');
    await addQuestion(ts, questionBody(domain));
    const me = await ts.user();
    const early = await addPaper(ts, { domain, question_count: 1, opens_at: iso(hour) });
    const late = await addPaper(ts, { domain, question_count: 1, opens_at: iso(-2 * hour), closes_at: iso(-hour) });
    const open = await addPaper(ts, { domain, question_count: 1, opens_at: iso(-hour), closes_at: iso(hour) });

    const before = await ts.api.post('/api/exam/start', { token: me.token, body: { paper_id: early.id } });
    assert.equal(before.status, 409, before.text);
    assert.equal(before.body.error, 'exam.not_open_yet');
    assert.equal(before.body.data, null);
    assert.match(before.body.message, /opens at/);
    const afterIt = await ts.api.post('/api/exam/start', { token: me.token, body: { paper_id: late.id } });
    assert.equal(afterIt.status, 409, afterIt.text);
    assert.equal(afterIt.body.error, 'exam.window_closed');
    await start(ts, me.token, open.id);

    const cover = await ts.api.get(`/api/exam/cover?id=${early.id}`, { token: me.token });
    assert.equal(cover.body.data.can_start, false);
    assert.equal(cover.body.data.opens_at, early.opens_at);
  });

  test('closes_at must come after opens_at', async () => {
    const res = await ts.api.post('/api/exam/papers', {
      token: ts.adminToken,
      body: { name: 'P', type: 'formal', domain: 'd', question_count: 1, total_score: 100, pass_score: 60, duration_minutes: 10, opens_at: iso(hour), closes_at: iso(-hour) },
    });
    assert.equal(res.status, 400, res.text);
    const paper = await addPaper(ts, { domain: 'd', opens_at: iso(hour) });
    const edit = await ts.api.put(`/api/exam/papers/${paper.id}`, { token: ts.adminToken, body: { closes_at: iso(-hour) } });
    assert.equal(edit.status, 400, edit.text);
  });
});

describe('a pool larger than the paper', () => {
  test('randomize draws question_count questions from the whole pool, anew for each attempt', async () => {
    const domain = uniqueDomain('pool');
    const bank = await addQuestions(ts, domain, 10);
    const paper = await addPaper(ts, { domain, question_count: 3, randomize: true, type: 'self_test' });
    const me = await ts.user();
    const seen = new Set<number>();
    for (let i = 0; i < 8; i++) {
      const session = await start(ts, me.token, paper.id);
      assert.equal(session.questions.length, 3);
      assert.equal(new Set(session.questions.map((q) => q.id)).size, 3);
      for (const q of session.questions) {
        assert.ok(bank.some((b) => b.id === q.id));
        seen.add(q.id);
      }
      await submit(ts, me.token, session.session_id, {});
    }
    assert.ok(seen.size > 3, `eight attempts drew only ${seen.size} distinct questions`);
  });
});

/** The label under which the candidate saw the option that has `text`. */
const labelOf = (issued: IssuedQuestion, text: string) => issued.options.find((o) => o.text === text)!.key;

/** Answers each issued question right by reading the texts, as a candidate does; in rule 2.3.2's encoding. */
function rightByText(issued: IssuedQuestion[], bank: Question[]): AnswerMap {
  const questions = byId(bank);
  return Object.fromEntries(
    issued.map((iq) => {
      const q = questions.get(iq.id)!;
      const labels = q.answer.map((key) => labelOf(iq, q.options.find((o) => o.key === key)!.text));
      return [String(iq.id), q.type === 'multiple' ? iq.options.map((o) => o.key).filter((k) => labels.includes(k)) : labels[0]!];
    }),
  );
}

describe('options shuffled per attempt', () => {
  test('each attempt shows its own order under the usual labels; right answers are graded right and stored in the question keys', async () => {
    const domain = uniqueDomain('shuffle');
    const bank = [
      await addQuestion(ts, questionBody(domain, 'single', { answer: ['A'] })),
      await addQuestion(ts, questionBody(domain, 'multiple', { answer: ['A', 'D'] })),
      await addQuestion(ts, questionBody(domain, 'true_false')),
    ];
    const paper = await addPaper(ts, { domain, question_count: 3, shuffle_options: true });
    assert.equal(paper.shuffle_options, true);
    const me = await ts.user();
    const orders = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const session = await start(ts, me.token, paper.id);
      for (const iq of session.questions) {
        const q = byId(bank).get(iq.id)!;
        assert.deepEqual(iq.options.map((o) => o.key), q.options.map((o) => o.key), 'labels keep their order');
        assert.deepEqual(iq.options.map((o) => o.text).sort(), q.options.map((o) => o.text).sort());
        if (q.type === 'true_false') assert.deepEqual(iq.options, q.options);
        else orders.add(iq.options.map((o) => o.text).join('|'));
      }
      // A reload shows the same order.
      const state = await ts.api.get(`/api/exam/sessions/${session.session_id}`, { token: me.token });
      assert.deepEqual(state.body.data.questions.map((q: IssuedQuestion) => q.options), session.questions.map((q) => q.options));

      const sheet = rightByText(session.questions, bank);
      assert.equal(typeof sheet[String(bank[0]!.id)], 'string');
      assert.ok(Array.isArray(sheet[String(bank[1]!.id)]));
      assert.equal(sheet[String(bank[2]!.id)], 'true');
      const result = await submit(ts, me.token, session.session_id, sheet);
      assert.equal(result.correct_count, 3, JSON.stringify({ sheet, detail: result.detail }));
      assert.equal(result.score, 100);
      // The result speaks the candidate's labels: what they sent is what they are shown.
      for (const d of result.detail) assert.deepEqual(d.user_answer, sheet[String(d.question_id)]);
      // The record keeps the questions' own keys.
      const record = await recordDetail(me.token, result.record_id!);
      for (const d of record.detail) {
        const q = byId(bank).get(d.question_id)!;
        assert.deepEqual(d.user_answer, q.type === 'multiple' ? q.answer : q.answer[0]);
        assert.deepEqual(d.correct_answer, d.user_answer);
      }
    }
    assert.ok(orders.size > 2, `six attempts showed only ${orders.size} orders`);
  });

  test('a wrong choice under a shuffled label is graded wrong', async () => {
    const domain = uniqueDomain('shuffle_wrong');
    const q = await addQuestion(ts, questionBody(domain, 'single', { answer: ['B'] }));
    const paper = await addPaper(ts, { domain, question_count: 1, shuffle_options: true, type: 'self_test' });
    const me = await ts.user();
    const session = await start(ts, me.token, paper.id);
    const wrongText = q.options.find((o) => o.key !== 'B')!.text;
    const result = await submit(ts, me.token, session.session_id, { [String(q.id)]: labelOf(session.questions[0]!, wrongText) });
    assert.equal(result.correct_count, 0);
    assert.equal(result.detail[0]!.correct_answer, labelOf(session.questions[0]!, 'Option B'));
  });
});

describe('leaving the exam window', () => {
  test('the count sent with the submit is on the record (admins see it in the list)', async () => {
    const { bank, paper } = await paperOf({});
    const me = await ts.user();
    const session = await start(ts, me.token, paper.id);
    const res = await ts.api.post('/api/exam/submit', { token: me.token, body: { session_id: session.session_id, answers: allRight(session.questions, bank), leave_count: 3 } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.leave_count, 3);
    const list = await ts.api.get(`/api/system/exam-records?paper_id=${paper.id}`, { token: ts.adminToken });
    assert.equal(list.body.data.items[0].leave_count, 3);
    const bad = await ts.api.post('/api/exam/submit', { token: me.token, body: { session_id: session.session_id, answers: {}, leave_count: -1 } });
    assert.equal(bad.status, 400, bad.text);
  });
});
