// Learning progress, points (passed exams, completed courses; each awarded once) and the department leaderboard.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { startTestServer, type TestServer } from '../support/server.js';
import type { Leaderboard, PointsSummary, ProgressOverview } from '../../contract/learning.js';
import { addPaper, addQuestions, allRight, answerSheet, start, submit, uniqueDomain } from './exams-fixtures.js';

let ts: TestServer;

before(async () => {
  ts = await startTestServer();
});
after(() => ts.close());

async function course(title = 'Course', status?: string): Promise<number> {
  const res = await ts.api.post('/api/courses', { token: ts.adminToken, body: { title, ...(status && { status }) } });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id;
}

const points = async (token: string, query = ''): Promise<PointsSummary> => (await ts.api.get(`/api/learning/points${query}`, { token })).body.data;

async function passExam(token: string, paperId: number, bank: Parameters<typeof allRight>[1], right = true) {
  const session = await start(ts, token, paperId);
  return submit(ts, token, session.session_id, right ? allRight(session.questions, bank) : answerSheet(session.questions, bank, () => false));
}

describe('learning progress', () => {
  test('requires a token', async () => {
    for (const path of ['/api/learning/progress', '/api/learning/progress/1', '/api/learning/points', '/api/learning/leaderboard']) {
      assert.equal((await ts.api.get(path)).status, 401, path);
    }
    assert.equal((await ts.api.put('/api/learning/progress/1', { body: { status: 'viewed' } })).status, 401);
  });

  test('a course goes not_started → viewed → completed and never back; completion earns points once', async () => {
    const me = await ts.user();
    const courseId = await course('Sales basics');
    const fresh = await ts.api.get(`/api/learning/progress/${courseId}`, { token: me.token });
    assert.deepEqual(fresh.body.data, { course_id: courseId, course_title: 'Sales basics', status: 'not_started', viewed_at: null, completed_at: null, updated_at: null });

    const viewed = await ts.api.put(`/api/learning/progress/${courseId}`, { token: me.token, body: { status: 'viewed' } });
    assert.equal(viewed.status, 200, viewed.text);
    assert.equal(viewed.body.data.status, 'viewed');
    assert.ok(viewed.body.data.viewed_at);
    assert.equal(viewed.body.data.completed_at, null);
    assert.equal(viewed.body.data.points_awarded, 0);

    const completed = await ts.api.put(`/api/learning/progress/${courseId}`, { token: me.token, body: { status: 'completed' } });
    assert.equal(completed.body.data.status, 'completed');
    assert.ok(completed.body.data.completed_at);
    assert.equal(completed.body.data.viewed_at, viewed.body.data.viewed_at);
    assert.equal(completed.body.data.points_awarded, 5);

    const again = await ts.api.put(`/api/learning/progress/${courseId}`, { token: me.token, body: { status: 'completed' } });
    assert.equal(again.body.data.points_awarded, 0);
    const back = await ts.api.put(`/api/learning/progress/${courseId}`, { token: me.token, body: { status: 'viewed' } });
    assert.equal(back.body.data.status, 'completed', 'completed is final');
    assert.equal((await points(me.token)).total, 5);

    const direct = await course('Direct completion');
    const done = await ts.api.put(`/api/learning/progress/${direct}`, { token: me.token, body: { status: 'completed' } });
    assert.ok(done.body.data.viewed_at, 'completing implies viewing');
  });

  test('the overview lists the caller courses with counts; other users are separate', async () => {
    const me = await ts.user();
    const other = await ts.user();
    const a = await course('Overview A');
    const b = await course('Overview B');
    await ts.api.put(`/api/learning/progress/${a}`, { token: me.token, body: { status: 'viewed' } });
    await ts.api.put(`/api/learning/progress/${b}`, { token: me.token, body: { status: 'completed' } });
    const overview = (await ts.api.get('/api/learning/progress', { token: me.token })).body.data as ProgressOverview;
    assert.equal(overview.user_id, me.id);
    assert.equal(overview.viewed, 1);
    assert.equal(overview.completed, 1);
    assert.ok(overview.total_courses >= 2);
    assert.equal(overview.percent_complete, Math.round((1 / overview.total_courses) * 100));
    assert.deepEqual(overview.items.map((i) => i.course_id).sort(), [a, b].sort());
    const theirs = (await ts.api.get('/api/learning/progress', { token: other.token })).body.data as ProgressOverview;
    assert.deepEqual(theirs.items, []);

    const forbidden = await ts.api.get(`/api/learning/progress?user_id=${me.id}`, { token: other.token });
    assert.equal(forbidden.status, 403);
    const asAdmin = await ts.api.get(`/api/learning/progress?user_id=${me.id}`, { token: ts.adminToken });
    assert.equal(asAdmin.body.data.completed, 1);
  });

  test('bad requests: unknown course 404, inactive course 409, bad status or id 400', async () => {
    const me = await ts.user();
    const inactive = await course('Retired course', 'inactive');
    assert.equal((await ts.api.put('/api/learning/progress/999999', { token: me.token, body: { status: 'viewed' } })).status, 404);
    assert.equal((await ts.api.get('/api/learning/progress/999999', { token: me.token })).status, 404);
    const closed = await ts.api.put(`/api/learning/progress/${inactive}`, { token: me.token, body: { status: 'completed' } });
    assert.equal(closed.status, 409);
    assert.equal(closed.body.error, 'learning.course_inactive');
    const active = await course('Active course');
    for (const body of [{}, { status: 'finished' }, { status: true }]) {
      const res = await ts.api.put(`/api/learning/progress/${active}`, { token: me.token, body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error, 'validation_failed');
    }
    assert.equal((await ts.api.put('/api/learning/progress/abc', { token: me.token, body: { status: 'viewed' } })).status, 400);
    assert.equal((await points(me.token)).total, 0);
  });
});

describe('points and leaderboard', () => {
  test('the first passed formal record of a paper earns points; fails, repeats and self-tests do not', async () => {
    const me = await ts.user();
    const domain = uniqueDomain('points');
    const bank = await addQuestions(ts, domain, 3);
    const paper = await addPaper(ts, { name: 'Points exam', domain });
    const practice = await addPaper(ts, { name: 'Points practice', domain, type: 'self_test' });

    assert.equal((await passExam(me.token, paper.id, bank, false)).points_awarded, 0);
    assert.equal((await passExam(me.token, practice.id, bank)).points_awarded, 0);
    const passed = await passExam(me.token, paper.id, bank);
    assert.equal(passed.points_awarded, 10);
    assert.equal((await passExam(me.token, paper.id, bank)).points_awarded, 0, 'a paper pays out once');

    const summary = await points(me.token);
    assert.equal(summary.user_id, me.id);
    assert.equal(summary.total, 10);
    assert.equal(summary.events.length, 1);
    assert.deepEqual({ ...summary.events[0], id: 0, created_at: '' }, { id: 0, source_type: 'exam', source_id: paper.id, record_id: passed.record_id, points: 10, reason: 'Passed Points exam', created_at: '' });
    assert.equal(typeof summary.rank, 'number');
    assert.equal((await points(ts.adminToken)).rank, null, 'admins are not ranked');
    const stranger = await ts.user();
    assert.equal((await ts.api.get(`/api/learning/points?user_id=${me.id}`, { token: stranger.token })).status, 403);
    assert.equal((await points(ts.adminToken, `?user_id=${me.id}`)).total, 10);
  });

  test('leaderboard ranks departments by total points and users by points', async () => {
    const tag = crypto.randomBytes(3).toString('hex');
    const north = `North ${tag}`;
    const south = `South ${tag}`;
    const n1 = await ts.user('employee', { department: north });
    const n2 = await ts.user('employee', { department: north });
    const s1 = await ts.user('employee', { department: south });
    const courses = await Promise.all([course('L1'), course('L2'), course('L3')]);
    const complete = (token: string, id: number) => ts.api.put(`/api/learning/progress/${id}`, { token, body: { status: 'completed' } });
    await complete(n1.token, courses[0]!);
    await complete(n2.token, courses[0]!);
    await complete(n2.token, courses[1]!);
    for (const id of courses) await complete(s1.token, id);

    const board = (await ts.api.get('/api/learning/leaderboard?limit=200', { token: n1.token })).body.data as Leaderboard;
    const northRow = board.departments.find((d) => d.department === north)!;
    const southRow = board.departments.find((d) => d.department === south)!;
    assert.deepEqual({ ...northRow, rank: 0 }, { rank: 0, department: north, total_points: 15, member_count: 2, average_points: 7.5 });
    assert.equal(southRow.total_points, 15);
    assert.equal(southRow.rank, northRow.rank, 'equal totals share a rank');
    const ranks = board.departments.map((d) => d.total_points);
    assert.deepEqual(ranks, [...ranks].sort((a, b) => b - a));

    const inNorth = (await ts.api.get(`/api/learning/leaderboard?department=${encodeURIComponent(north)}`, { token: n1.token })).body.data as Leaderboard;
    assert.deepEqual(inNorth.users.map((u) => [u.user_id, u.points, u.rank]), [[n2.id, 10, 1], [n1.id, 5, 2]]);
    assert.equal((await ts.api.get('/api/learning/leaderboard?limit=0', { token: n1.token })).status, 400);
    const top = (await ts.api.get('/api/learning/leaderboard?limit=1', { token: n1.token })).body.data as Leaderboard;
    assert.equal(top.users.length, 1);
  });
});
