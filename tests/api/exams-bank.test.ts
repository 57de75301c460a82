// Question bank and exam papers (admin): CRUD, validation, status filters, publishing notifications.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';
import { addPaper, addQuestion, addQuestions, allRight, questionBody, start, submit, uniqueDomain } from './exams-fixtures.js';

let ts: TestServer;
let employee: { id: number; token: string };

before(async () => {
  ts = await startTestServer();
  employee = await ts.user('employee');
});
after(() => ts.close());

function assertFailure(res: { status: number; body: { data: unknown; error: string | null; message: string } }, status: number, error?: string) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.data, null);
  assert.equal(typeof res.body.message, 'string');
  if (error) assert.equal(res.body.error, error);
}

describe('question bank', () => {
  test('admin endpoints answer 401 without a token and 403 to an employee', async () => {
    const q = await addQuestion(ts, questionBody(uniqueDomain('auth')));
    const calls: [string, string][] = [
      ['GET', '/api/exam/questions'],
      ['GET', `/api/exam/questions/${q.id}`],
      ['POST', '/api/exam/questions'],
      ['PUT', `/api/exam/questions/${q.id}`],
      ['DELETE', `/api/exam/questions/${q.id}`],
      ['GET', '/api/exam/papers'],
      ['POST', '/api/exam/papers'],
      ['GET', '/api/exam/papers/1'],
      ['PUT', '/api/exam/papers/1'],
      ['DELETE', '/api/exam/papers/1'],
    ];
    for (const [method, path] of calls) {
      const body = method === 'GET' ? undefined : questionBody('x');
      assertFailure(await ts.api.request(method, path, { body }), 401, 'unauthorized');
      assertFailure(await ts.api.request(method, path, { token: employee.token, body }), 403, 'forbidden');
    }
    const after = await ts.api.get(`/api/exam/questions/${q.id}`, { token: ts.adminToken });
    assert.equal(after.body.data.status, 'active', 'the employee DELETE changed nothing');
  });

  test('creates questions of the three types; true_false gets its options when none are given', async () => {
    const domain = uniqueDomain('create');
    const single = await addQuestion(ts, questionBody(domain, 'single'));
    assert.equal(single.type, 'single');
    assert.equal(single.domain, domain);
    assert.equal(single.course_id, null);
    assert.deepEqual(single.answer, ['B']);
    assert.deepEqual(single.options.map((o) => o.key), ['A', 'B', 'C', 'D']);
    assert.equal(single.status, 'active');
    assert.equal(single.explanation, 'Because.');
    assert.ok(Number.isInteger(single.id));

    const multiple = await addQuestion(ts, questionBody(domain, 'multiple'));
    assert.deepEqual(multiple.answer, ['A', 'C']);

    const tf = await addQuestion(ts, { domain, type: 'true_false', stem: 'The sky is blue.', answer: ['false'] });
    assert.deepEqual(tf.options.map((o) => o.key), ['true', 'false']);
    assert.deepEqual(tf.answer, ['false']);

    const course = await ts.api.post('/api/courses', { token: ts.adminToken, body: { title: 'Course for questions' } });
    const bound = await addQuestion(ts, questionBody(domain, 'single', { course_id: course.body.data.id }));
    assert.equal(bound.course_id, course.body.data.id);

    const one = await ts.api.get(`/api/exam/questions/${single.id}`, { token: ts.adminToken });
    assert.equal(one.status, 200);
    assert.deepEqual(one.body.data, single);
  });

  test('rejects malformed questions with 400 in the envelope and stores nothing', async () => {
    const domain = uniqueDomain('invalid');
    const bad: [string, Record<string, unknown>][] = [
      ['answer key not among the options', questionBody(domain, 'single', { answer: ['E'] })],
      ['single with two answers', questionBody(domain, 'single', { answer: ['A', 'B'] })],
      ['true_false with two answers', questionBody(domain, 'true_false', { answer: ['true', 'false'] })],
      ['true_false with other keys', questionBody(domain, 'true_false', { options: [{ key: 'yes', text: 'Yes' }, { key: 'no', text: 'No' }], answer: ['yes'] })],
      ['true_false with three options', questionBody(domain, 'true_false', { options: [{ key: 'true', text: 'T' }, { key: 'false', text: 'F' }, { key: 'maybe', text: 'M' }] })],
      ['one option', questionBody(domain, 'single', { options: [{ key: 'A', text: 'Only' }], answer: ['A'] })],
      ['no options', questionBody(domain, 'multiple', { options: [], answer: ['A'] })],
      ['duplicate option keys', questionBody(domain, 'single', { options: [{ key: 'A', text: 'a' }, { key: 'A', text: 'b' }], answer: ['A'] })],
      ['empty answer', questionBody(domain, 'multiple', { answer: [] })],
      ['repeated answer key', questionBody(domain, 'multiple', { answer: ['A', 'A'] })],
      ['answer as a string', questionBody(domain, 'single', { answer: 'B' })],
      ['unknown type', questionBody(domain, 'single', { type: 'essay' })],
      ['missing stem', questionBody(domain, 'single', { stem: undefined })],
      ['missing domain', questionBody('', 'single')],
      ['unknown course', questionBody(domain, 'single', { course_id: 999999 })],
    ];
    for (const [label, body] of bad) {
      const res = await ts.api.post('/api/exam/questions', { token: ts.adminToken, body });
      assert.equal(res.status, 400, `${label}: ${res.text}`);
      assert.equal(res.body.error, 'validation_failed', label);
      assert.equal(res.body.data, null, label);
    }
    const res = await ts.api.post('/api/exam/questions', { token: ts.adminToken, raw: '{"domain":', headers: { 'content-type': 'application/json' } });
    assertFailure(res, 400);
    const list = await ts.api.get(`/api/exam/questions?domain=${domain}&status=all`, { token: ts.adminToken });
    assert.deepEqual(list.body.data, []);
  });

  test('edits a question; an edit that breaks a rule is refused and changes nothing', async () => {
    const domain = uniqueDomain('edit');
    const q = await addQuestion(ts, questionBody(domain, 'single'));
    const edited = await ts.api.put(`/api/exam/questions/${q.id}`, { token: ts.adminToken, body: { stem: 'Edited stem', answer: ['D'] } });
    assert.equal(edited.status, 200, edited.text);
    assert.equal(edited.body.data.stem, 'Edited stem');
    assert.deepEqual(edited.body.data.answer, ['D']);
    assert.deepEqual(edited.body.data.options, q.options);

    const broken = await ts.api.put(`/api/exam/questions/${q.id}`, { token: ts.adminToken, body: { type: 'true_false' } });
    assert.equal(broken.status, 400, 'switching to true_false leaves the answer "D" outside the true/false options');
    const tooMany = await ts.api.put(`/api/exam/questions/${q.id}`, { token: ts.adminToken, body: { answer: ['A', 'B'] } });
    assertFailure(tooMany, 400, 'validation_failed');
    const unchanged = await ts.api.get(`/api/exam/questions/${q.id}`, { token: ts.adminToken });
    assert.deepEqual(unchanged.body.data.answer, ['D']);
    assert.equal(unchanged.body.data.type, 'single');

    assertFailure(await ts.api.put('/api/exam/questions/999999', { token: ts.adminToken, body: { stem: 'x' } }), 404, 'not_found');
    assertFailure(await ts.api.get('/api/exam/questions/999999', { token: ts.adminToken }), 404, 'not_found');
    assertFailure(await ts.api.put('/api/exam/questions/abc', { token: ts.adminToken, body: { stem: 'x' } }), 400);
  });

  test('DELETE disables; status filters: omitted = active, all, a specific value; domain filter', async () => {
    const domain = uniqueDomain('status');
    const [a, b, c] = await addQuestions(ts, domain, 3);
    await addQuestions(ts, uniqueDomain('other'), 1);
    const deleted = await ts.api.delete(`/api/exam/questions/${b!.id}`, { token: ts.adminToken });
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.data.status, 'disabled');
    assert.equal(deleted.body.data.id, b!.id);

    const ids = async (query: string) => (await ts.api.get(`/api/exam/questions?${query}`, { token: ts.adminToken })).body.data.map((q: { id: number }) => q.id);
    assert.deepEqual(await ids(`domain=${domain}`), [a!.id, c!.id]);
    assert.deepEqual(await ids(`domain=${domain}&status=active`), [a!.id, c!.id]);
    assert.deepEqual(await ids(`domain=${domain}&status=all`), [a!.id, b!.id, c!.id]);
    assert.deepEqual(await ids(`domain=${domain}&status=disabled`), [b!.id]);
    assert.deepEqual(await ids(`domain=${domain}&type=multiple&status=all`), [b!.id]);
    const everything = await ids('status=all');
    assert.ok(everything.length > 3 && everything.includes(b!.id));
    assertFailure(await ts.api.get('/api/exam/questions?status=bogus', { token: ts.adminToken }), 400, 'validation_failed');

    assertFailure(await ts.api.delete('/api/exam/questions/999999', { token: ts.adminToken }), 404, 'not_found');
    const again = await ts.api.delete(`/api/exam/questions/${b!.id}`, { token: ts.adminToken });
    assert.equal(again.body.data.status, 'disabled', 'disabling twice is harmless');
    const enabled = await ts.api.put(`/api/exam/questions/${b!.id}`, { token: ts.adminToken, body: { status: 'active' } });
    assert.equal(enabled.body.data.status, 'active');
  });
});

describe('exam papers', () => {
  const notificationCount = async (token: string) =>
    (await ts.api.get('/api/notifications', { token })).body.data.filter((n: { type: string }) => n.type === 'exam_published').length;

  test('creates, lists, reads and edits papers with the fields of 2.2', async () => {
    const domain = uniqueDomain('paper');
    await addQuestions(ts, domain, 4);
    const paper = await addPaper(ts, { name: 'Company basics', domain, question_count: 3, total_score: 50, pass_score: 30, duration_minutes: 20, randomize: true, description: 'Read carefully.' });
    assert.equal(paper.name, 'Company basics');
    assert.equal(paper.type, 'formal');
    assert.equal(paper.domain, domain);
    assert.equal(paper.question_count, 3);
    assert.equal(paper.total_score, 50);
    assert.equal(paper.pass_score, 30);
    assert.equal(paper.duration_minutes, 20);
    assert.equal(paper.randomize, true);
    assert.equal(paper.available_questions, 4);
    assert.equal(paper.max_attempts, null);
    assert.equal(paper.status, 'active');

    const list = await ts.api.get('/api/exam/papers', { token: ts.adminToken });
    assert.equal(list.status, 200);
    assert.ok(list.body.data.some((p: { id: number }) => p.id === paper.id));
    const one = await ts.api.get(`/api/exam/papers/${paper.id}`, { token: ts.adminToken });
    assert.deepEqual(one.body.data, paper);

    const edited = await ts.api.put(`/api/exam/papers/${paper.id}`, { token: ts.adminToken, body: { pass_score: 50, randomize: false } });
    assert.equal(edited.status, 200, edited.text);
    assert.equal(edited.body.data.pass_score, 50);
    assert.equal(edited.body.data.randomize, false, 'an explicit false is stored as false');
    const overTotal = await ts.api.put(`/api/exam/papers/${paper.id}`, { token: ts.adminToken, body: { pass_score: 51 } });
    assertFailure(overTotal, 400, 'validation_failed');
    assert.equal((await ts.api.get(`/api/exam/papers/${paper.id}`, { token: ts.adminToken })).body.data.pass_score, 50);

    assertFailure(await ts.api.get('/api/exam/papers/999999', { token: ts.adminToken }), 404, 'not_found');
    assertFailure(await ts.api.put('/api/exam/papers/999999', { token: ts.adminToken, body: { name: 'x' } }), 404, 'not_found');
    assertFailure(await ts.api.put(`/api/exam/papers/${paper.id}`, { token: ts.adminToken, body: { type: 'quiz' } }), 400, 'validation_failed');

    const retired = await ts.api.delete(`/api/exam/papers/${paper.id}`, { token: ts.adminToken });
    assert.equal(retired.status, 200);
    assert.equal(retired.body.data.status, 'inactive');
    const offered = await ts.api.get('/api/exam/list', { token: employee.token });
    assert.ok(!offered.body.data.some((p: { id: number }) => p.id === paper.id), 'a deleted paper is no longer offered');
    assert.equal((await ts.api.get('/api/exam/papers', { token: ts.adminToken })).body.data.find((p: { id: number }) => p.id === paper.id).status, 'inactive');
    assertFailure(await ts.api.delete('/api/exam/papers/999999', { token: ts.adminToken }), 404, 'not_found');
  });

  test('rejects invalid papers with 400', async () => {
    const base = { name: 'P', type: 'formal', domain: 'd', question_count: 2, total_score: 100, pass_score: 60, duration_minutes: 10 };
    const bad: Record<string, unknown>[] = [
      { ...base, pass_score: 101 },
      { ...base, type: 'quiz' },
      { ...base, question_count: 0 },
      { ...base, duration_minutes: 0 },
      { ...base, total_score: 'a lot' },
      { ...base, randomize: 'yes' },
      { ...base, name: undefined },
      { ...base, domain: '' },
    ];
    for (const body of bad) assertFailure(await ts.api.post('/api/exam/papers', { token: ts.adminToken, body }), 400, 'validation_failed');
  });

  test('the self-test type is also accepted as self-test, selftest, self or practice, and is stored as self_test', async () => {
    const domain = uniqueDomain('selftest');
    const bank = await addQuestions(ts, domain, 2);
    const paper = await addPaper(ts, { name: 'Spelled self-test', type: 'self-test', domain, question_count: 2 });
    assert.equal(paper.type, 'self_test');
    assert.equal(paper.published_at, null, 'a self-test is not published');
    assert.equal((await ts.api.get(`/api/exam/papers/${paper.id}`, { token: ts.adminToken })).body.data.type, 'self_test');
    const stored = await ts.server.db('exam_papers').where({ id: paper.id }).first('type');
    assert.equal(stored.type, 'self_test');

    const taker = await ts.user('employee');
    const session = await start(ts, taker.token, paper.id);
    assert.equal(session.kind, 'self_test');
    const result = await submit(ts, taker.token, session.session_id, allRight(session.questions, bank));
    assert.equal(result.passed, true);
    assert.equal(result.record_id, null, 'a self-test submit is not stored as a record');
    assert.equal((await ts.api.get('/api/exam/record', { token: taker.token })).body.data.total, 0);

    for (const type of ['selftest', 'self', 'practice', 'Self-Test', ' PRACTICE ']) {
      const other = await addPaper(ts, { name: `Type ${type}`, type, domain });
      assert.equal(other.type, 'self_test', type);
    }
    const formal = await ts.api.put(`/api/exam/papers/${paper.id}`, { token: ts.adminToken, body: { type: 'Formal' } });
    assert.equal(formal.body.data.type, 'formal');
    const back = await ts.api.put(`/api/exam/papers/${paper.id}`, { token: ts.adminToken, body: { type: 'practice' } });
    assert.equal(back.body.data.type, 'self_test');
    for (const type of ['self test', 'selftests', 'exam', '', 1]) {
      assertFailure(await ts.api.put(`/api/exam/papers/${paper.id}`, { token: ts.adminToken, body: { type } }), 400, 'validation_failed');
    }
  });

  test('publishing a formal paper notifies every active employee once; self-tests notify nobody', async () => {
    const other = await ts.user('employee');
    const disabled = await ts.user('employee');
    await ts.api.put(`/api/system/users/${disabled.id}`, { token: ts.adminToken, body: { status: 'disabled' } });
    const before = await notificationCount(other.token);
    const employeeBefore = await notificationCount(employee.token);
    const adminBefore = await notificationCount(ts.adminToken);

    await addPaper(ts, { name: 'Practice', type: 'self_test', domain: 'any' });
    assert.equal(await notificationCount(other.token), before, 'a self-test is not announced');

    const formal = await addPaper(ts, { name: 'Quarterly compliance', domain: 'any' });
    assert.ok(formal.published_at);
    const mine = (await ts.api.get('/api/notifications', { token: other.token })).body.data.filter((n: { type: string }) => n.type === 'exam_published');
    assert.equal(mine.length, before + 1);
    assert.match(mine[0].title, /Quarterly compliance/);
    assert.ok(mine[0].link.includes(String(formal.id)));
    assert.equal(await notificationCount(employee.token), employeeBefore + 1, 'every active employee is told');
    assert.equal(await notificationCount(ts.adminToken), adminBefore, 'admins are not');
    const disabledRows = await ts.server.db('notifications').where({ user_id: disabled.id, type: 'exam_published' });
    assert.equal(disabledRows.length, 0, 'disabled employees are not');

    const english = await ts.user('employee');
    assert.equal((await ts.api.put('/api/auth/me', { token: english.token, body: { locale: 'en' } })).status, 200);
    await addPaper(ts, { name: '季度合规', domain: 'any' });
    const latest = async (token: string) => (await ts.api.get('/api/notifications', { token })).body.data[0] as { title: string; content: string };
    assert.equal((await latest(other.token)).title, '新考试：季度合规', 'in Chinese for those who never chose a language');
    assert.match((await latest(other.token)).content, /^共 3 题，限时 30 分钟/);
    assert.equal((await latest(english.token)).title, 'New exam: 季度合规', 'in English for those who chose it');

    await ts.api.put(`/api/exam/papers/${formal.id}`, { token: ts.adminToken, body: { name: 'Quarterly compliance (v2)' } });
    assert.equal(await notificationCount(other.token), before + 2, 'editing does not announce again');

    const draft = await addPaper(ts, { name: 'Later exam', domain: 'any', status: 'inactive' });
    assert.equal(draft.published_at, null);
    assert.equal(await notificationCount(other.token), before + 2, 'an inactive paper is not announced');
    await ts.api.put(`/api/exam/papers/${draft.id}`, { token: ts.adminToken, body: { status: 'active' } });
    assert.equal(await notificationCount(other.token), before + 3, 'activating it publishes it');
  });
});
