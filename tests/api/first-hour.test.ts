// The first hour of the firm's users (docs/api/exams.md "Audience", docs/api/assignments.md, docs/api.md "Time
// zone", "Passwords"): papers for an audience, a movable due date told to the assignees, best scores and attempts
// in the progress, dates printed in the firm's time zone, and weak passwords refused.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import { startTestServer, type TestServer } from '../support/server.js';
import type { Notification } from '../../contract/notifications.js';
import type { AssignmentProgress } from '../../contract/assignments.js';
import type { ExamListItem, Question } from '../../contract/exams.js';
import { addPaper, addQuestions, allRight, answerSheet, start, submit, uniqueDomain } from './exams-fixtures.js';

let ts: TestServer;
before(async () => {
  ts = await startTestServer();
});
after(async () => {
  await ts.close();
});

const admin = () => ({ token: ts.adminToken });
const unique = (label: string) => `${label}-${crypto.randomBytes(3).toString('hex')}`;
const notices = async (token: string, titlePart: string): Promise<Notification[]> =>
  ((await ts.api.get('/api/notifications', { token })).body.data as Notification[]).filter((n) => n.title.includes(titlePart));
const examList = async (token: string): Promise<number[]> => ((await ts.api.get('/api/exam/list', { token })).body.data as ExamListItem[]).map((e) => e.id);
async function department(): Promise<number> {
  const res = await ts.api.post('/api/system/departments', { ...admin(), body: { name: unique('营业部') } });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id;
}

describe('passwords', () => {
  const create = (username: string, password: string) => ts.api.post('/api/system/users', { ...admin(), body: { username, password, full_name: username } });

  test('a new user with a short, common or username-equal password is 400 auth.weak_password; a good one is created', async () => {
    for (const [username, password] of [
      [unique('weak'), '12345678'],
      [unique('weak'), 'password'],
      [unique('weak'), 'Qwerty123'],
      [unique('weak'), 'abc12'],
      ['same-as-name-1', 'SAME-AS-NAME-1'],
    ] as const) {
      const res = await create(username, password);
      assert.equal(res.status, 400, `${password}: ${res.text}`);
      assert.equal(res.body.error, 'auth.weak_password');
      assert.ok(res.body.message.length > 10);
    }
    assert.equal((await create(unique('strong'), 'Tiger-lily-42')).status, 201);
  });

  test('the first-login change and an admin reset refuse weak passwords too', async () => {
    const user = await ts.user();
    const weak = await ts.api.put('/api/auth/password', { token: user.token, body: { current_password: 'secret-pass', new_password: '12345678' } });
    assert.equal(weak.status, 400);
    assert.equal(weak.body.error, 'auth.weak_password');
    const sameName = await ts.api.put('/api/auth/password', { token: user.token, body: { current_password: 'secret-pass', new_password: user.username } });
    assert.equal(sameName.body.error, 'auth.weak_password');
    assert.equal((await ts.api.put(`/api/system/users/${user.id}`, { ...admin(), body: { password: 'iloveyou' } })).body.error, 'auth.weak_password');
    assert.equal((await ts.api.put('/api/auth/password', { token: user.token, body: { current_password: 'secret-pass', new_password: 'Harbour-lights-7' } })).status, 200);
    assert.equal((await ts.api.post('/api/auth/login', { body: { username: user.username, password: 'Harbour-lights-7' } })).status, 200);
  });
});

describe('papers for an audience', () => {
  let bank: Question[];
  let domain: string;
  before(async () => {
    domain = uniqueDomain('audience');
    bank = await addQuestions(ts, domain, 2);
  });

  test('a department paper is listed, startable and announced only to its department and named people; admins see it', async () => {
    const [sales, ops] = [await department(), await department()];
    const inSales = await ts.user('employee', { department_id: sales });
    const inOps = await ts.user('employee', { department_id: ops });
    const nowhere = await ts.user();
    const named = await ts.user();
    const name = unique('销售部专项考试');
    const paper = await addPaper(ts, { name, domain, question_count: 2, audience: { department_ids: [sales], user_ids: [named.id] } });
    assert.deepEqual(paper.audience, { department_ids: [sales], user_ids: [named.id] });
    assert.deepEqual((await ts.api.get(`/api/exam/papers/${paper.id}`, admin())).body.data.audience, paper.audience);

    for (const who of [inSales, named]) {
      assert.ok((await examList(who.token)).includes(paper.id));
      assert.equal((await notices(who.token, name)).length, 1, 'told of the new exam');
      assert.equal((await ts.api.post('/api/exam/start', { token: who.token, body: { paper_id: paper.id } })).status, 200);
    }
    for (const who of [inOps, nowhere]) {
      assert.ok(!(await examList(who.token)).includes(paper.id), 'not listed');
      assert.equal((await notices(who.token, name)).length, 0, 'not told');
      const refused = await ts.api.post('/api/exam/start', { token: who.token, body: { paper_id: paper.id } });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.error, 'exam.not_in_audience');
      assert.equal((await ts.api.get(`/api/exam/cover?id=${paper.id}`, { token: who.token })).status, 403);
    }
    assert.ok((await examList(ts.adminToken)).includes(paper.id));

    // Assigning the paper makes the assignees part of its audience.
    const due = new Date(Date.now() + 5 * 24 * 3600_000).toISOString();
    assert.equal((await ts.api.post('/api/assignments', { ...admin(), body: { item: { type: 'exam', id: paper.id }, target: { user_ids: [nowhere.id] }, due_at: due } })).status, 201);
    assert.ok((await examList(nowhere.token)).includes(paper.id));
    assert.equal((await ts.api.post('/api/exam/start', { token: nowhere.token, body: { paper_id: paper.id } })).status, 200);
    assert.ok(!(await examList(inOps.token)).includes(paper.id));

    // null opens it to everyone again; an unknown department is 400.
    assert.equal((await ts.api.put(`/api/exam/papers/${paper.id}`, { ...admin(), body: { audience: null } })).status, 200);
    assert.ok((await examList(inOps.token)).includes(paper.id));
    const bad = await ts.api.put(`/api/exam/papers/${paper.id}`, { ...admin(), body: { audience: { department_ids: [999_999] } } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error, 'validation_failed');
  });

  test('a paper with no audience is everyone’s, as before', async () => {
    const paper = await addPaper(ts, { name: unique('全员考试'), domain, question_count: 2 });
    assert.equal(paper.audience, null);
    const anyone = await ts.user();
    assert.ok((await examList(anyone.token)).includes(paper.id));
    const { session_id, questions } = await start(ts, anyone.token, paper.id);
    assert.equal((await submit(ts, anyone.token, session_id, allRight(questions, bank))).passed, true);
  });
});

describe('assignments that move, and what the progress shows', () => {
  test('a new due date is told to the assignees not done, in the firm’s time zone; progress has best score and attempts', async () => {
    const domain = uniqueDomain('assign-edit');
    const bank = await addQuestions(ts, domain, 2);
    const paper = await addPaper(ts, { name: unique('任务考试'), domain, question_count: 2, pass_score: 100, total_score: 100 });
    const [done, trying, idle] = [await ts.user(), await ts.user(), await ts.user()];
    const created = await ts.api.post('/api/assignments', {
      ...admin(),
      body: { item: { type: 'exam', id: paper.id }, target: { user_ids: [done.id, trying.id, idle.id] }, due_at: '2030-01-01T20:00:00Z', title: unique('季度考核') },
    });
    assert.equal(created.status, 201, created.text);
    const a = created.body.data as { id: number; title: string };
    // Asia/Shanghai is UTC+8: 20:00Z on 1 January is 04:00 on 2 January there.
    assert.match((await notices(idle.token, a.title))[0]!.content, /2030-01-02 04:00/);

    const first = await start(ts, done.token, paper.id);
    await submit(ts, done.token, first.session_id, allRight(first.questions, bank));
    for (let i = 0; i < 2; i++) {
      const attempt = await start(ts, trying.token, paper.id);
      await submit(ts, trying.token, attempt.session_id, answerSheet(attempt.questions, bank, (id) => id === bank[0]!.id));
    }

    const moved = await ts.api.put(`/api/assignments/${a.id}`, { ...admin(), body: { due_at: '2030-02-01T02:30:00Z' } });
    assert.equal(moved.status, 200, moved.text);
    assert.equal(moved.body.data.due_at, '2030-02-01T02:30:00.000Z');
    for (const who of [trying, idle]) {
      const told = await notices(who.token, '截止时间已调整');
      assert.equal(told.length, 1);
      assert.match(told[0]!.content, /2030-02-01 10:30/);
      assert.match(told[0]!.content, /2030-01-02 04:00/);
    }
    assert.equal((await notices(done.token, '截止时间已调整')).length, 0, 'not told once done');

    const progress = (await ts.api.get(`/api/assignments/${a.id}/progress`, admin())).body.data as AssignmentProgress;
    const row = (id: number) => progress.people.find((p) => p.user_id === id)!;
    assert.deepEqual([row(done.id).best_score, row(done.id).attempts], [100, 1]);
    assert.deepEqual([row(trying.id).best_score, row(trying.id).attempts], [50, 2]);
    assert.deepEqual([row(idle.id).best_score, row(idle.id).attempts], [null, 0]);
  });
});

describe('the firm’s time zone', () => {
  test('timezone is a system setting (default Asia/Shanghai, an IANA name) that dates the certificate PDF', async () => {
    const config = (await ts.api.get('/api/system/config', admin())).body.data as Record<string, unknown>;
    assert.equal(JSON.stringify(config).includes('Asia/Shanghai'), true);
    const bad = await ts.api.put('/api/system/config', { ...admin(), body: { configs: { timezone: 'Mars/Olympus' } } });
    assert.equal(bad.status, 400);

    const domain = uniqueDomain('tz');
    const bank = await addQuestions(ts, domain, 1);
    const paper = await addPaper(ts, { name: unique('时区考试'), domain, question_count: 1 });
    const user = await ts.user();
    const { session_id, questions } = await start(ts, user.token, paper.id);
    await submit(ts, user.token, session_id, allRight(questions, bank));
    const [cert] = (await ts.api.get('/api/exam/certificates', { token: user.token })).body.data as { id: number; issued_at: string }[];
    const pdfText = async () => {
      const res = await fetch(`${ts.url}/api/exam/certificates/${cert!.id}/pdf`, { headers: { authorization: `Bearer ${user.token}` } });
      assert.equal(res.status, 200);
      return execFileSync('pdftotext', ['-', '-'], { input: Buffer.from(await res.arrayBuffer()) }).toString();
    };
    const shanghaiDay = new Date(Date.parse(cert!.issued_at) + 8 * 3600_000).toISOString().slice(0, 10);
    assert.ok((await pdfText()).includes(shanghaiDay), `the PDF is dated ${shanghaiDay} (Asia/Shanghai)`);
    assert.equal((await ts.api.put('/api/system/config', { ...admin(), body: { configs: { timezone: 'UTC' } } })).status, 200);
    try {
      assert.ok((await pdfText()).includes(cert!.issued_at.slice(0, 10)), 'dated in UTC once the setting says so');
    } finally {
      await ts.api.put('/api/system/config', { ...admin(), body: { configs: { timezone: 'Asia/Shanghai' } } });
    }
  });
});
