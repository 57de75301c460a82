// Taking exams: list, cover, start, autosave, submit (grading rule 2.3.2, submit once, late submits, bad bodies).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';
import type { AnswerDetail, ExamCover, ExamListItem, SubmitResult } from '../../contract/exams.js';
import { coalesce } from '../../server/exams/coalesce.js';
import { findSessions } from '../../server/exams/sessions.repository.js';
import { gradeSubmit } from '../../server/exams/submit.service.js';
import { storeSubmits } from '../../server/exams/submit-store.js';
import { findUserRow, toUser } from '../../server/users/users.repository.js';
import { addPaper, addQuestion, addQuestions, allRight, answerSheet, questionBody, start, submit, uniqueDomain } from './exams-fixtures.js';

let ts: TestServer;

before(async () => {
  ts = await startTestServer();
});
after(() => ts.close());

/** A domain with `count` questions and a paper over it. */
async function exam(fields: Record<string, unknown> = {}, count = 3) {
  const domain = uniqueDomain('exam');
  const bank = await addQuestions(ts, domain, count);
  const paper = await addPaper(ts, { domain, question_count: count, ...fields });
  return { domain, bank, paper };
}

const recordsOf = async (token: string) => (await ts.api.get('/api/exam/record?size=200', { token })).body.data;

describe('exam list and cover', () => {
  test('require a token', async () => {
    for (const path of ['/api/exam/list', '/api/exam/cover?id=1']) assert.equal((await ts.api.get(path)).status, 401);
    for (const path of ['/api/exam/start', '/api/exam/submit']) assert.equal((await ts.api.post(path, { body: {} })).status, 401);
  });

  test('list active exams with the caller standing; cover with instructions', async () => {
    const me = await ts.user();
    const { paper, bank } = await exam({ name: 'Listed exam', pass_score: 60 });
    const inactive = await addPaper(ts, { name: 'Retired', domain: paper.domain, status: 'inactive' });
    const find = async () => ((await ts.api.get('/api/exam/list', { token: me.token })).body.data as ExamListItem[]).find((e) => e.id === paper.id)!;

    const fresh = await find();
    assert.equal(fresh.name, 'Listed exam');
    assert.equal(fresh.type, 'formal');
    assert.equal(fresh.status, 'not_started');
    assert.equal(fresh.attempts, 0);
    assert.equal(fresh.best_score, null);
    assert.equal(fresh.can_start, true);
    const list = (await ts.api.get('/api/exam/list', { token: me.token })).body.data as ExamListItem[];
    assert.ok(!list.some((e) => e.id === inactive.id), 'inactive papers are not offered');

    const first = await start(ts, me.token, paper.id);
    assert.equal((await find()).status, 'in_progress');
    await submit(ts, me.token, first.session_id, answerSheet(first.questions, bank, (id) => id === bank[0]!.id));
    const failed = await find();
    assert.equal(failed.status, 'failed');
    assert.equal(failed.best_score, 33.33);
    const second = await start(ts, me.token, paper.id);
    await submit(ts, me.token, second.session_id, allRight(second.questions, bank));
    const passed = await find();
    assert.equal(passed.status, 'passed');
    assert.equal(passed.best_score, 100);
    assert.equal(passed.attempts, 2);
    assert.ok(passed.last_submitted_at);

    const cover = await ts.api.get(`/api/exam/cover?id=${paper.id}`, { token: me.token });
    assert.equal(cover.status, 200);
    const data = cover.body.data as ExamCover;
    assert.equal(data.id, paper.id);
    assert.equal(data.duration_minutes, 30);
    assert.equal(data.question_count, 3);
    assert.equal(data.status, 'passed');
    assert.ok(data.instructions.length >= 3);
    assert.equal(data.unavailable_reason, null);

    assert.equal((await ts.api.get('/api/exam/cover?id=999999', { token: me.token })).status, 404);
    assert.equal((await ts.api.get(`/api/exam/cover?id=${inactive.id}`, { token: me.token })).status, 404);
    assert.equal((await ts.api.get('/api/exam/cover?id=abc', { token: me.token })).status, 400);
    assert.equal((await ts.api.get('/api/exam/cover', { token: me.token })).status, 400);
  });

  test('max_attempts: every start counts; the next start is refused with 409', async () => {
    const me = await ts.user();
    const { paper } = await exam({ max_attempts: 1 });
    await start(ts, me.token, paper.id);
    const refused = await ts.api.post('/api/exam/start', { token: me.token, body: { paper_id: paper.id } });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error, 'exam.attempts_exhausted');
    const cover = (await ts.api.get(`/api/exam/cover?id=${paper.id}`, { token: me.token })).body.data as ExamCover;
    assert.equal(cover.can_start, false);
    assert.equal(cover.attempts_left, 0);
  });

  test('max_attempts holds for starts at the same moment: the check and the insert are one step', async () => {
    const me = await ts.user();
    const { paper } = await exam({ max_attempts: 2 });
    const results = await Promise.all(Array.from({ length: 8 }, () => ts.api.post('/api/exam/start', { token: me.token, body: { paper_id: paper.id } })));
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 200, 409, 409, 409, 409, 409, 409]);
    const cover = (await ts.api.get(`/api/exam/cover?id=${paper.id}`, { token: me.token })).body.data as ExamCover;
    assert.equal(cover.attempts_left, 0);
  });
});

describe('start', () => {
  test('issues question_count active questions without answers or explanations', async () => {
    const me = await ts.user();
    const domain = uniqueDomain('start');
    const bank = await addQuestions(ts, domain, 5);
    await ts.api.delete(`/api/exam/questions/${bank[1]!.id}`, { token: ts.adminToken });
    const paper = await addPaper(ts, { domain, question_count: 4, duration_minutes: 25, name: 'Start exam' });
    const res = await ts.api.post('/api/exam/start', { token: me.token, body: { paper_id: paper.id } });
    assert.equal(res.status, 200, res.text);
    const data = res.body.data;
    assert.match(data.session_id, /^[0-9a-f-]{36}$/);
    assert.equal(data.exam_name, 'Start exam');
    assert.equal(data.time_limit_min, 25);
    assert.equal(data.questions.length, 4);
    assert.deepEqual(data.questions.map((q: { order: number }) => q.order), [1, 2, 3, 4]);
    assert.ok(!data.questions.some((q: { id: number }) => q.id === bank[1]!.id), 'disabled questions are not issued');
    assert.deepEqual(data.questions.map((q: { id: number }) => q.id), bank.filter((_, i) => i !== 1).map((q) => q.id), 'without randomize: the first ones by id');
    for (const q of data.questions) {
      assert.deepEqual(Object.keys(q).sort(), ['id', 'options', 'order', 'stem', 'type']);
      assert.ok(!/answer|explanation/.test(JSON.stringify(q)));
    }
    assert.equal(Date.parse(data.deadline_at) - Date.parse(data.started_at), 25 * 60_000);
  });

  for (const randomize of [false, true]) {
    test(`a bank with fewer active questions than question_count issues them all and scores them in full (randomize ${randomize})`, async () => {
      const me = await ts.user();
      const { paper, bank } = await exam({ randomize, total_score: 7, pass_score: 7 });
      await ts.api.delete(`/api/exam/questions/${bank[1]!.id}`, { token: ts.adminToken });
      const cover = (await ts.api.get(`/api/exam/cover?id=${paper.id}`, { token: me.token })).body.data as ExamCover;
      assert.equal(cover.can_start, true);
      assert.equal(cover.unavailable_reason, null);

      const session = await start(ts, me.token, paper.id);
      assert.equal(session.questions.length, 2);
      assert.equal(session.question_count, 2);
      assert.deepEqual(session.questions.map((q) => q.id).sort((a, b) => a - b), [bank[0]!.id, bank[2]!.id], 'the disabled question is not issued');
      assert.deepEqual(session.questions.map((q) => q.order), [1, 2]);
      const result = await submit(ts, me.token, session.session_id, allRight(session.questions, bank));
      assert.equal(result.question_count, 2);
      assert.equal(result.correct_count, 2);
      assert.equal(result.wrong_count, 0);
      assert.equal(result.score, 7, 'a perfect submit scores total_score');
      assert.equal(result.passed, true);
      assert.equal(typeof result.certificate_id, 'number');

      const half = await start(ts, me.token, paper.id);
      const oneRight = await submit(ts, me.token, half.session_id, answerSheet(half.questions, bank, (id) => id === bank[0]!.id));
      assert.equal(oneRight.score, 3.5, '7 × 1/2');
      assert.equal(oneRight.passed, false);
    });
  }

  test('no active question gives 409 exam.not_enough_questions; unknown paper 404; bad body 400', async () => {
    const me = await ts.user();
    const { paper, bank } = await exam();
    for (const q of bank) await ts.api.delete(`/api/exam/questions/${q.id}`, { token: ts.adminToken });
    const res = await ts.api.post('/api/exam/start', { token: me.token, body: { paper_id: paper.id } });
    assert.equal(res.status, 409);
    assert.equal(res.body.error, 'exam.not_enough_questions');
    assert.match(res.body.message, /no active questions/);
    assert.deepEqual(res.body.details, { required: 3, available: 0 });
    const cover = (await ts.api.get(`/api/exam/cover?id=${paper.id}`, { token: me.token })).body.data as ExamCover;
    assert.equal(cover.can_start, false);
    assert.match(cover.unavailable_reason ?? '', /no active questions/);
    const empty = await addPaper(ts, { domain: uniqueDomain('empty') });
    assert.equal((await ts.api.post('/api/exam/start', { token: me.token, body: { paper_id: empty.id } })).status, 409);
    assert.equal((await ts.api.post('/api/exam/start', { token: me.token, body: { paper_id: 999999 } })).status, 404);
    for (const body of [{}, { paper_id: 'x' }, { paper_id: -1 }]) {
      const bad = await ts.api.post('/api/exam/start', { token: me.token, body });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.error, 'validation_failed');
    }
  });

  test('randomize draws a random subset in random order', async () => {
    const me = await ts.user();
    const domain = uniqueDomain('random');
    const bank = await addQuestions(ts, domain, 20);
    const paper = await addPaper(ts, { domain, question_count: 8, randomize: true, type: 'self_test' });
    const draws = await Promise.all(Array.from({ length: 4 }, () => start(ts, me.token, paper.id)));
    const orders = new Set(draws.map((d) => d.questions.map((q) => q.id).join(',')));
    assert.ok(orders.size > 1, 'four draws of 8 of 20 questions are not all identical');
    const bankIds = new Set(bank.map((q) => q.id));
    for (const d of draws) {
      assert.equal(new Set(d.questions.map((q) => q.id)).size, 8);
      assert.ok(d.questions.every((q) => bankIds.has(q.id)));
    }
  });
});

describe('submit and grading', () => {
  test('grades every type by rule 2.3.2: exact-set multiple choice, order-insensitive, no partial credit', async () => {
    const me = await ts.user();
    const domain = uniqueDomain('grade');
    const single = await addQuestion(ts, questionBody(domain, 'single'));
    const multiple = await addQuestion(ts, questionBody(domain, 'multiple'));
    const tf = await addQuestion(ts, questionBody(domain, 'true_false'));
    const paper = await addPaper(ts, { domain, question_count: 3, total_score: 100, pass_score: 60 });
    const cases: [Record<string, unknown>, boolean[]][] = [
      [{ [single.id]: 'B', [multiple.id]: ['C', 'A'], [tf.id]: 'true' }, [true, true, true]],
      [{ [single.id]: 'A', [multiple.id]: ['A'], [tf.id]: 'false' }, [false, false, false]],
      [{ [single.id]: 'B', [multiple.id]: ['A', 'B', 'C'], [tf.id]: 'true' }, [true, false, true]],
      [{ [multiple.id]: ['A', 'C'] }, [false, true, false]],
    ];
    for (const [answers, expected] of cases) {
      const session = await start(ts, me.token, paper.id);
      const result = await submit(ts, me.token, session.session_id, answers as never);
      const byId = new Map(result.detail.map((d) => [d.question_id, d.is_correct]));
      assert.deepEqual([byId.get(single.id), byId.get(multiple.id), byId.get(tf.id)], expected, JSON.stringify(answers));
      const correct = expected.filter(Boolean).length;
      assert.equal(result.correct_count, correct);
      assert.equal(result.wrong_count, 3 - correct);
      assert.equal(result.score, [0, 33.33, 66.67, 100][correct]);
      assert.equal(result.passed, correct >= 2);
    }
    const session = await start(ts, me.token, paper.id);
    const result = await submit(ts, me.token, session.session_id, { [multiple.id]: ['C', 'A'], [tf.id]: 'true' });
    assert.deepEqual(result.detail.find((d) => d.question_id === multiple.id), { question_id: multiple.id, is_correct: true, user_answer: ['A', 'C'], correct_answer: ['A', 'C'] });
    assert.deepEqual(result.detail.find((d) => d.question_id === single.id), { question_id: single.id, is_correct: false, user_answer: '', correct_answer: 'B' });
    assert.deepEqual(result.detail.find((d) => d.question_id === tf.id), { question_id: tf.id, is_correct: true, user_answer: 'true', correct_answer: 'true' });
    assert.equal(result.session_id, session.session_id);
    assert.equal(result.exam_name, 'Paper');
    assert.equal(result.total_score, 100);
    assert.equal(result.pass_score, 60);
    assert.equal(result.time_spent_sec, 42);
    assert.equal(typeof result.record_id, 'number');
  });

  test('score = total_score × correct / question_count rounded half up to 2 decimals; pass at score >= pass_score', async () => {
    const me = await ts.user();
    const { paper, bank } = await exam({ total_score: 5, pass_score: 2 }, 8);
    const session = await start(ts, me.token, paper.id);
    const result = await submit(ts, me.token, session.session_id, answerSheet(session.questions, bank, (id) => id === bank[0]!.id));
    assert.equal(result.score, 0.63, '5 × 1/8 = 0.625');
    assert.equal(result.passed, false);
    const again = await start(ts, me.token, paper.id);
    const three = new Set(bank.slice(0, 4).map((q) => q.id));
    const exact = await submit(ts, me.token, again.session_id, answerSheet(again.questions, bank, (id) => three.has(id)));
    assert.equal(exact.score, 2.5);
    assert.equal(exact.passed, true);
  });

  test('questions disabled or edited after the start are graded with the key frozen at start', async () => {
    const me = await ts.user();
    const { paper, bank } = await exam();
    const session = await start(ts, me.token, paper.id);
    await ts.api.delete(`/api/exam/questions/${bank[0]!.id}`, { token: ts.adminToken });
    await ts.api.put(`/api/exam/questions/${bank[1]!.id}`, { token: ts.adminToken, body: { answer: ['B', 'D'] } });
    const result = await submit(ts, me.token, session.session_id, allRight(session.questions, bank));
    assert.equal(result.correct_count, 3);
    assert.ok(result.detail.every((d) => d.is_correct));
  });

  test('a self-test returns the same shape and is not stored as a record', async () => {
    const me = await ts.user();
    const { paper, bank } = await exam({ type: 'self_test', name: 'Practice quiz' });
    const session = await start(ts, me.token, paper.id);
    assert.equal(session.kind, 'self_test');
    const result = await submit(ts, me.token, session.session_id, allRight(session.questions, bank));
    assert.equal(result.passed, true);
    assert.equal(result.score, 100);
    assert.equal(result.record_id, null);
    assert.equal(result.certificate_id, null);
    assert.equal(result.exam_name, 'Practice quiz');
    for (const key of ['session_id', 'exam_name', 'score', 'total_score', 'pass_score', 'passed', 'correct_count', 'wrong_count', 'detail']) assert.ok(key in result, key);
    assert.equal((await recordsOf(me.token)).total, 0);
    assert.deepEqual((await ts.api.get('/api/exam/certificates', { token: me.token })).body.data, []);
    const again = await ts.api.post('/api/exam/submit', { token: me.token, body: { session_id: session.session_id, answers: {} } });
    assert.deepEqual(again.body.data, result, 'a self-test session is also submitted once');
  });

  test('a session is submitted once: the second submit returns the stored result and issues nothing', async () => {
    const me = await ts.user();
    const { paper, bank } = await exam();
    const session = await start(ts, me.token, paper.id);
    const first = await submit(ts, me.token, session.session_id, allRight(session.questions, bank), 100);
    assert.equal(first.passed, true);
    assert.equal(typeof first.certificate_id, 'number');
    const second = await submit(ts, me.token, session.session_id, answerSheet(session.questions, bank, () => false), 5);
    assert.deepEqual(second, first);
    assert.equal((await recordsOf(me.token)).total, 1);
    assert.equal((await ts.api.get('/api/exam/certificates', { token: me.token })).body.data.length, 1);
  });

  test('concurrent duplicate submits store one record and issue exactly one certificate', async () => {
    const me = await ts.user();
    const { paper, bank } = await exam();
    const session = await start(ts, me.token, paper.id);
    const answers = allRight(session.questions, bank);
    const results = await Promise.all(Array.from({ length: 8 }, () => ts.api.post('/api/exam/submit', { token: me.token, body: { session_id: session.session_id, answers } })));
    assert.deepEqual(results.map((r) => r.status), Array(8).fill(200));
    const recordIds = new Set(results.map((r) => r.body.data.record_id));
    const certificateIds = new Set(results.map((r) => r.body.data.certificate_id));
    assert.equal(recordIds.size, 1);
    assert.equal(certificateIds.size, 1);
    assert.equal((await recordsOf(me.token)).total, 1);
    const certs = (await ts.api.get('/api/exam/certificates', { token: me.token })).body.data;
    assert.equal(certs.length, 1);
    assert.equal(certs[0].id, [...certificateIds][0]);
    const points = (await ts.api.get('/api/learning/points', { token: me.token })).body.data;
    assert.equal(points.total, 10, 'points are awarded once');
  });

  for (const type of ['formal', 'self_test'] as const) {
    test(`a ${type} batch that finds its session consumed by another server since it read it stores nothing and replays`, async () => {
      const me = await ts.user();
      const { paper, bank } = await exam({ type });
      const session = await start(ts, me.token, paper.id);
      const db = ts.server.db;
      const [read] = await findSessions(db, [session.session_id]);
      const user = toUser((await findUserRow(db, me.id))!);
      const graded = gradeSubmit({ user, input: { session_id: session.session_id, answers: answerSheet(session.questions, bank, () => false), time_spent_sec: 5 }, at: new Date() }, read);
      assert.ok('result' in graded, 'graded against the session as read, still open');
      // Meanwhile another server (or process) takes the same session through a whole submit.
      const first = await submit(ts, me.token, session.session_id, allRight(session.questions, bank));
      const stored = async () => ({
        records: Number((await db('exam_records').where({ user_id: me.id }).count({ n: '*' }).first())!.n),
        mistakes: await db('exam_mistakes').where({ user_id: me.id }).select('question_id', 'wrong_count'),
        session: await db('exam_sessions').where({ id: session.session_id }).first('submitted_at', 'score', 'result'),
      });
      const before = await stored();
      assert.deepEqual(await db.transaction((trx) => storeSubmits(trx, [graded])), [undefined], 'the stale submit is to replay');
      assert.deepEqual(await stored(), before, 'nothing of the stale batch is kept');
      assert.equal(before.records, type === 'formal' ? 1 : 0);
      assert.deepEqual(before.mistakes, [], 'the first submit was all right');
      assert.deepEqual(await submit(ts, me.token, session.session_id, answerSheet(session.questions, bank, () => false)), first);
    });
  }

  test('parallel submits of many sessions, with duplicates and bad ones mixed in, each get their own outcome', async () => {
    const { paper, bank } = await exam();
    const users = await Promise.all([ts.user(), ts.user(), ts.user()]);
    const sessions = await Promise.all(users.flatMap((u) => [start(ts, u.token, paper.id), start(ts, u.token, paper.id)]));
    const owner = (i: number) => users[Math.floor(i / 2)]!;
    const calls = sessions.flatMap((s, i) => {
      const body = { session_id: s.session_id, answers: i % 2 ? answerSheet(s.questions, bank, () => false) : allRight(s.questions, bank) };
      const submitAs = (token: string, b: unknown) => ts.api.post('/api/exam/submit', { token, body: b });
      return [
        submitAs(owner(i).token, body),
        submitAs(owner(i).token, body),
        submitAs(owner(i).token, { ...body, answers: [42] }),
        submitAs(owner((i + 2) % 6).token, body),
      ];
    });
    const responses = await Promise.all(calls);
    for (const [i, s] of sessions.entries()) {
      const [first, duplicate, bad, foreign] = responses.slice(i * 4, i * 4 + 4);
      assert.equal(first!.status, 200, first!.text);
      assert.deepEqual(duplicate!.body.data, first!.body.data);
      assert.equal(first!.body.data.session_id, s.session_id);
      assert.equal(first!.body.data.passed, i % 2 === 0);
      assert.equal(bad!.status, 400);
      assert.equal(foreign!.status, 404);
    }
    for (const u of users) {
      const records = await recordsOf(u.token);
      assert.equal(records.total, 2);
      assert.equal((await ts.api.get('/api/exam/certificates', { token: u.token })).body.data.length, 1);
    }
  });

  test('unknown session or another user session is a 404 and leaves the session usable', async () => {
    const owner = await ts.user();
    const intruder = await ts.user();
    const { paper, bank } = await exam();
    const session = await start(ts, owner.token, paper.id);
    const answers = allRight(session.questions, bank);
    const stolen = await ts.api.post('/api/exam/submit', { token: intruder.token, body: { session_id: session.session_id, answers } });
    assert.equal(stolen.status, 404);
    assert.equal(stolen.body.error, 'not_found');
    const unknown = await ts.api.post('/api/exam/submit', { token: owner.token, body: { session_id: '00000000-0000-4000-8000-000000000000', answers } });
    assert.equal(unknown.status, 404);
    assert.equal((await ts.api.get(`/api/exam/sessions/${session.session_id}`, { token: intruder.token })).status, 404);
    assert.equal((await recordsOf(intruder.token)).total, 0);
    const result = await submit(ts, owner.token, session.session_id, answers);
    assert.equal(result.passed, true);
  });

  test('unusable answers are graded wrong and recorded as sent; other session ids are ignored; the attempt is kept', async () => {
    const me = await ts.user();
    const domain = uniqueDomain('lenient');
    const single = await addQuestion(ts, questionBody(domain, 'single'));
    const multiple = await addQuestion(ts, questionBody(domain, 'multiple'));
    const tf = await addQuestion(ts, questionBody(domain, 'true_false'));
    const outsider = await addQuestion(ts, questionBody(uniqueDomain('elsewhere'), 'single'));
    const paper = await addPaper(ts, { domain, question_count: 3, pass_score: 30 });
    const detailOf = (result: SubmitResult) => new Map(result.detail.map((d) => [d.question_id, { is_correct: d.is_correct, user_answer: d.user_answer }]));
    const cases: [string, Record<string, unknown>, Record<number, { is_correct: boolean; user_answer: unknown }>][] = [
      ['unknown option keys', { [single.id]: 'Z', [multiple.id]: ['A', 'Z'], [tf.id]: 'yes' }, {
        [single.id]: { is_correct: false, user_answer: 'Z' },
        [multiple.id]: { is_correct: false, user_answer: ['A', 'Z'] },
        [tf.id]: { is_correct: false, user_answer: 'yes' },
      }],
      ['values of the wrong kind', { [single.id]: 2, [multiple.id]: ['A', 1, null], [tf.id]: ['true', 'false'] }, {
        [single.id]: { is_correct: false, user_answer: '2' },
        [multiple.id]: { is_correct: false, user_answer: ['A', '1'] },
        [tf.id]: { is_correct: false, user_answer: ['true', 'false'] },
      }],
      ['keys in another case, and a list of one key where one key is expected', { [single.id]: ['b'], [multiple.id]: ['c', 'a'], [tf.id]: ['TRUE'] }, {
        [single.id]: { is_correct: true, user_answer: 'B' },
        [multiple.id]: { is_correct: true, user_answer: ['A', 'C'] },
        [tf.id]: { is_correct: true, user_answer: 'true' },
      }],
      ['objects, a list of two for single choice, a comma list with an unknown key', { [single.id]: ['B', 'A'], [multiple.id]: 'A,Z', [tf.id]: { value: true } }, {
        [single.id]: { is_correct: false, user_answer: ['B', 'A'] },
        [multiple.id]: { is_correct: false, user_answer: 'A,Z' },
        [tf.id]: { is_correct: false, user_answer: '' },
      }],
      ['JSON booleans for true/false, strings for multiple choice', { [single.id]: 'B', [multiple.id]: 'C,A', [tf.id]: true }, {
        [single.id]: { is_correct: true, user_answer: 'B' },
        [multiple.id]: { is_correct: true, user_answer: ['A', 'C'] },
        [tf.id]: { is_correct: true, user_answer: 'true' },
      }],
      ['one key as a string for multiple choice; false as a boolean; a comma list for single choice', { [multiple.id]: 'A', [tf.id]: false, [single.id]: 'B,Z' }, {
        [single.id]: { is_correct: false, user_answer: 'B,Z' },
        [multiple.id]: { is_correct: false, user_answer: ['A'] },
        [tf.id]: { is_correct: false, user_answer: 'false' },
      }],
      ['questions outside the session and non-id keys are ignored', { [single.id]: 'B', [outsider.id]: 'B', abc: 'B', [multiple.id]: ['A', 'C', 'A'] }, {
        [single.id]: { is_correct: true, user_answer: 'B' },
        [multiple.id]: { is_correct: true, user_answer: ['A', 'C'] },
        [tf.id]: { is_correct: false, user_answer: '' },
      }],
    ];
    for (const [label, answers, expected] of cases) {
      const session = await start(ts, me.token, paper.id);
      const res = await ts.api.post('/api/exam/submit', { token: me.token, body: { session_id: session.session_id, answers } });
      assert.equal(res.status, 200, `${label}: ${res.text}`);
      const result = res.body.data as SubmitResult;
      assert.deepEqual(Object.fromEntries(detailOf(result)), expected, label);
      assert.equal(result.detail.length, 3, label);
      assert.ok(!result.detail.some((d) => d.question_id === outsider.id), label);
      const correct = Object.values(expected).filter((e) => e.is_correct).length;
      assert.equal(result.correct_count, correct, label);
      assert.equal(result.score, [0, 33.33, 66.67, 100][correct], label);
      const record = await ts.api.get(`/api/exam/record/${result.record_id}`, { token: me.token });
      assert.deepEqual(new Map(record.body.data.detail.map((d: AnswerDetail) => [d.question_id, d.user_answer])), new Map(result.detail.map((d) => [d.question_id, d.user_answer])), label);
    }
    assert.equal((await recordsOf(me.token)).total, cases.length, 'every attempt is recorded');
    const mistakes = (await ts.api.get('/api/exam/mistakes', { token: me.token })).body.data;
    assert.equal(mistakes.items.find((m: { question_id: number }) => m.question_id === single.id).last_wrong_answer, 'B,Z');
  });

  test('only a body whose answers are not a map gives 400, and it stores nothing', async () => {
    const me = await ts.user();
    const { paper, bank } = await exam();
    const session = await start(ts, me.token, paper.id);
    const bodies: [string, unknown][] = [
      ['answers as an array', { session_id: session.session_id, answers: ['B'] }],
      ['answers as a string', { session_id: session.session_id, answers: 'B' }],
      ['answers as a number', { session_id: session.session_id, answers: 3 }],
      ['answers null', { session_id: session.session_id, answers: null }],
      ['answers missing', { session_id: session.session_id }],
      ['missing session_id', { answers: {} }],
      ['numeric session_id', { session_id: 12, answers: {} }],
      ['negative time', { session_id: session.session_id, answers: {}, time_spent_sec: -1 }],
    ];
    for (const [label, body] of bodies) {
      const res = await ts.api.post('/api/exam/submit', { token: me.token, body });
      assert.equal(res.status, 400, `${label}: ${res.text}`);
      assert.equal(res.body.data, null, label);
      assert.equal(res.body.error, 'validation_failed', label);
    }
    assert.equal((await recordsOf(me.token)).total, 0);
    assert.equal((await ts.api.get('/api/exam/mistakes', { token: me.token })).body.data.total, 0);
    const state = await ts.api.get(`/api/exam/sessions/${session.session_id}`, { token: me.token });
    assert.equal(state.body.data.submitted_at, null, 'the session is still open');
    const result = await submit(ts, me.token, session.session_id, allRight(session.questions, bank));
    assert.equal(result.correct_count, 3);
  });
});

describe('deadline and autosave', () => {
  /** Moves a session's clock back so that its deadline lies `secondsAgo` in the past. */
  async function expire(sessionId: string, secondsAgo: number, durationMinutes = 30) {
    const deadline = Date.now() - secondsAgo * 1000;
    await ts.server.db('exam_sessions').where({ id: sessionId }).update({
      started_at: new Date(deadline - durationMinutes * 60_000).toISOString(),
      deadline_at: new Date(deadline).toISOString(),
    });
  }

  test('autosave keeps the latest answers; GET shows them; other users get 404', async () => {
    const me = await ts.user();
    const other = await ts.user();
    const { paper, bank } = await exam();
    const session = await start(ts, me.token, paper.id);
    const answers = allRight(session.questions, bank);
    const saved = await ts.api.put(`/api/exam/sessions/${session.session_id}/answers`, { token: me.token, body: { answers } });
    assert.equal(saved.status, 200, saved.text);
    assert.equal(saved.body.data.saved, 3);
    assert.ok(saved.body.data.remaining_sec > 0);
    const state = await ts.api.get(`/api/exam/sessions/${session.session_id}`, { token: me.token });
    assert.deepEqual(state.body.data.saved_answers, answers);
    assert.deepEqual(state.body.data.questions, session.questions);
    assert.equal((await ts.api.put(`/api/exam/sessions/${session.session_id}/answers`, { token: other.token, body: { answers } })).status, 404);
    const odd = { [bank[0]!.id]: 'Z', [bank[1]!.id]: 'A,C', 999999: 'B' };
    const kept = await ts.api.put(`/api/exam/sessions/${session.session_id}/answers`, { token: me.token, body: { answers: odd } });
    assert.equal(kept.status, 200, 'autosave reads answers like submit: nothing is refused');
    assert.equal(kept.body.data.saved, 2, 'the two questions of the session');
    assert.deepEqual((await ts.api.get(`/api/exam/sessions/${session.session_id}`, { token: me.token })).body.data.saved_answers, odd);
    await ts.api.put(`/api/exam/sessions/${session.session_id}/answers`, { token: me.token, body: { answers } });
    for (const body of [{}, { answers: ['A'] }, { answers: null }]) {
      assert.equal((await ts.api.put(`/api/exam/sessions/${session.session_id}/answers`, { token: me.token, body })).status, 400, JSON.stringify(body));
    }
    assert.equal((await ts.api.get('/api/exam/sessions/nope', { token: me.token })).status, 404);
    assert.equal((await ts.api.get(`/api/exam/sessions/${session.session_id}`)).status, 401);

    await submit(ts, me.token, session.session_id, answers);
    const closed = await ts.api.put(`/api/exam/sessions/${session.session_id}/answers`, { token: me.token, body: { answers } });
    assert.equal(closed.status, 409);
    assert.equal(closed.body.error, 'exam.session_closed');
  });

  test('a submit within the grace period is on time', async () => {
    const me = await ts.user();
    const { paper, bank } = await exam();
    const session = await start(ts, me.token, paper.id);
    await expire(session.session_id, 5);
    const result = await submit(ts, me.token, session.session_id, allRight(session.questions, bank), 60);
    assert.equal(result.late, false);
    assert.equal(result.correct_count, 3);
    assert.equal(result.time_spent_sec, 60);
  });

  test('a submit after deadline + grace is graded as at the deadline, with the answers saved by then', async () => {
    const me = await ts.user();
    const { paper, bank } = await exam({ pass_score: 30 });
    const session = await start(ts, me.token, paper.id);
    const firstOnly = answerSheet(session.questions, bank, (id) => id === session.questions[0]!.id);
    const saved = await ts.api.put(`/api/exam/sessions/${session.session_id}/answers`, { token: me.token, body: { answers: firstOnly } });
    assert.equal(saved.status, 200);
    await expire(session.session_id, 120);
    const refused = await ts.api.put(`/api/exam/sessions/${session.session_id}/answers`, { token: me.token, body: { answers: allRight(session.questions, bank) } });
    assert.equal(refused.status, 409, 'no saving after the deadline');
    const deadline = (await ts.api.get(`/api/exam/sessions/${session.session_id}`, { token: me.token })).body.data.deadline_at;

    const result = await submit(ts, me.token, session.session_id, allRight(session.questions, bank), 10);
    assert.equal(result.late, true);
    assert.equal(result.correct_count, 1, 'the late answers are ignored; the saved ones count');
    assert.equal(result.submitted_at, deadline);
    assert.equal(result.time_spent_sec, 30 * 60);
    const record = await ts.api.get(`/api/exam/record/${result.record_id}`, { token: me.token });
    assert.equal(record.body.data.late, true);
    assert.equal(record.body.data.submitted_at, deadline);

    const unsaved = await start(ts, me.token, paper.id);
    await expire(unsaved.session_id, 3600);
    const blank = await submit(ts, me.token, unsaved.session_id, allRight(unsaved.questions, bank));
    assert.equal(blank.correct_count, 0);
    assert.equal(blank.passed, false);
  });
});

describe('coalesce (group commit behind submit)', () => {
  test('a lone call runs at once; calls made meanwhile share the next run', async () => {
    const runs: number[][] = [];
    const batches = coalesce(async (items: number[]) => {
      runs.push(items);
      await new Promise((resolve) => setTimeout(resolve, 5));
      return items.map((n) => n * 2);
    });
    const outputs = await Promise.all([1, 2, 3, 4].map((n) => batches.call(n)));
    assert.deepEqual(outputs, [2, 4, 6, 8]);
    assert.deepEqual(runs, [[1], [2, 3, 4]]);
    await batches.idle();
  });

  test('when a shared run fails, each call is retried alone and only the faulty one fails', async () => {
    const batches = coalesce(async (items: string[]) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      if (items.includes('bad')) throw new Error('bad item');
      return items.map((s) => s.toUpperCase());
    });
    const settled = await Promise.allSettled(['a', 'b', 'bad', 'c'].map((s) => batches.call(s)));
    assert.deepEqual(settled.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message)), ['A', 'B', 'bad item', 'C']);
  });
});
