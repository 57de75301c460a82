// Assignments (docs/api/assignments.md): rule targets with late joiners and leavers, completion by a passed formal
// exam or a completed course, overdue, notices and reminders sent once each (test clock, across a restart and, on
// PostgreSQL, with two servers on one database), the progress export, privacy.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startTestServer, usingPostgres, type TestServer } from '../support/server.js';
import { startServer } from '../../server/start.js';
import { ApiClient } from '../support/client.js';
import { TestClock } from '../support/test-clock.js';
import { until } from '../support/until.js';
import type { Assignment, AssignmentProgress, MyAssignment } from '../../contract/assignments.js';
import type { Notification } from '../../contract/notifications.js';
import type { Question } from '../../contract/exams.js';
import { addPaper, addQuestions, allRight, answerSheet, start, submit, uniqueDomain } from './exams-fixtures.js';

const DAY = 24 * 3600_000;
let clock: TestClock;
const SCAN_MS = 40;
let ts: TestServer;
let bank: Question[];
let paperId: number;

before(async () => {
  clock = TestClock.start(Date.now());
  ts = await startTestServer({ reminderScanMs: SCAN_MS });
  const domain = uniqueDomain('assign');
  bank = await addQuestions(ts, domain, 3);
  paperId = (await addPaper(ts, { name: '第三季度合规考试', domain, question_count: 3 })).id;
});
after(async () => {
  await ts.close();
  clock.stop();
});

const admin = () => ({ token: ts.adminToken });
const unique = (label: string) => `${label}-${crypto.randomBytes(3).toString('hex')}`;

async function department(name = unique('部门')): Promise<number> {
  const res = await ts.api.post('/api/system/departments', { ...admin(), body: { name } });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id;
}
async function position(name = unique('岗位')): Promise<number> {
  const res = await ts.api.post('/api/system/positions', { ...admin(), body: { name } });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id;
}
async function course(title = unique('课程')): Promise<number> {
  const res = await ts.api.post('/api/courses', { ...admin(), body: { title } });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id;
}

async function assign(body: Record<string, unknown>): Promise<Assignment> {
  const res = await ts.api.post('/api/assignments', { ...admin(), body: { item: { type: 'exam', id: paperId }, due_at: new Date(clock.ms + 5 * DAY).toISOString(), ...body } });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}
const progress = async (id: number, query = ''): Promise<AssignmentProgress> => {
  const res = await ts.api.get(`/api/assignments/${id}/progress${query}`, admin());
  assert.equal(res.status, 200, res.text);
  return res.body.data;
};
const mine = async (token: string): Promise<MyAssignment[]> => (await ts.api.get('/api/assignments/mine', { token })).body.data;
const notices = async (token: string, titlePart: string): Promise<Notification[]> =>
  ((await ts.api.get('/api/notifications', { token })).body.data as Notification[]).filter((n) => n.title.includes(titlePart));
const moveUser = async (id: number, fields: Record<string, unknown>) => assert.equal((await ts.api.put(`/api/system/users/${id}`, { ...admin(), body: fields })).status, 200);
const ids = (p: AssignmentProgress) => p.people.map((x) => x.user_id).sort((a, b) => a - b);
const sorted = (...values: number[]) => values.sort((a, b) => a - b);

async function pass(token: string, right = true) {
  const session = await start(ts, token, paperId);
  return submit(ts, token, session.session_id, right ? allRight(session.questions, bank) : answerSheet(session.questions, bank, () => false));
}

describe('assignments: access and validation', () => {
  test('a token is required; employees get 403 on the admin routes and only their own list', async () => {
    const employee = await ts.user();
    const a = await assign({ target: { user_ids: [employee.id] } });
    assert.equal((await ts.api.get('/api/assignments')).status, 401);
    assert.equal((await ts.api.get('/api/assignments/mine')).status, 401);
    for (const [method, p] of [
      ['get', '/api/assignments'],
      ['post', '/api/assignments'],
      ['get', `/api/assignments/${a.id}`],
      ['put', `/api/assignments/${a.id}`],
      ['delete', `/api/assignments/${a.id}`],
      ['get', `/api/assignments/${a.id}/progress`],
      ['get', `/api/assignments/${a.id}/progress/export`],
      ['post', `/api/assignments/${a.id}/remind`],
    ] as const) {
      const res = await ts.api.request(method.toUpperCase(), p, { token: employee.token, body: method === 'get' || method === 'delete' ? undefined : {} });
      assert.equal(res.status, 403, `${method} ${p}`);
      assert.equal(res.body.error, 'forbidden');
    }
    const own = await mine(employee.token);
    assert.deepEqual(own.map((m) => m.id), [a.id]);
    const other = await ts.user();
    assert.deepEqual(await mine(other.token), []);
  });

  test('unknown items and targets, empty targets and bad dates are refused with their codes', async () => {
    const someone = await ts.user();
    const due = new Date(clock.ms + DAY).toISOString();
    const post = (body: Record<string, unknown>) => ts.api.post('/api/assignments', { ...admin(), body: { item: { type: 'exam', id: paperId }, target: { user_ids: [someone.id] }, due_at: due, ...body } });
    const expect = async (body: Record<string, unknown>, status: number, code: string) => {
      const res = await post(body);
      assert.equal(res.status, status, res.text);
      assert.equal(res.body.error, code, res.text);
      assert.equal(res.body.data, null);
    };
    await expect({ item: { type: 'exam', id: 999_999 } }, 400, 'assignment.item_not_found');
    await expect({ item: { type: 'course', id: 999_999 } }, 400, 'assignment.item_not_found');
    const selfTest = await addPaper(ts, { name: 'Self test', type: 'self_test', domain: bank[0]!.domain });
    await expect({ item: { type: 'exam', id: selfTest.id } }, 400, 'assignment.paper_not_formal');
    await expect({ target: { department_ids: [999_999] } }, 400, 'assignment.target_not_found');
    await expect({ target: { user_ids: [someone.id, 999_998] } }, 400, 'assignment.target_not_found');
    await expect({ target: {} }, 400, 'assignment.empty_target');
    await expect({ due_at: new Date(clock.ms - 60_000).toISOString() }, 400, 'assignment.due_in_past');
    await expect({ starts_at: new Date(clock.ms + 2 * DAY).toISOString() }, 400, 'assignment.due_before_start');
    await expect({ due_at: '2026-13-45' }, 400, 'validation_failed');
    await expect({ item: { type: 'video', id: 1 } }, 400, 'validation_failed');
    await expect({ extra: true }, 400, 'validation_failed');
    assert.equal((await ts.api.get('/api/assignments/999999', admin())).status, 404);
    assert.equal((await ts.api.get('/api/assignments/999999/progress', admin())).status, 404);
    assert.equal((await ts.api.get('/api/assignments/abc', admin())).status, 400);
  });
});

describe('assignments: rule targets, completion, overdue', () => {
  test('departments, positions and people; late joiners are assigned, leavers stop counting; a passed formal exam completes', async () => {
    const [d1, d2, p1] = [await department(), await department(), await position()];
    const inDept = await ts.user('employee', { department_id: d1, full_name: '张三' });
    const inPosition = await ts.user('employee', { position_id: p1, full_name: '李四' });
    const named = await ts.user('employee', { full_name: '王五' });
    const outside = await ts.user('employee', { department_id: d2 });
    const a = await assign({ title: '第三季度合规考试（财富管理部）', target: { department_ids: [d1], position_ids: [p1], user_ids: [named.id] } });
    assert.equal(a.item.type, 'exam');
    assert.equal(a.item.id, paperId);
    assert.equal(a.item.name, '第三季度合规考试');
    assert.deepEqual(a.target, { department_ids: [d1], position_ids: [p1], user_ids: [named.id] });
    assert.equal(a.target_names.users[0]!.full_name, '王五');
    assert.equal(a.assigned, 3);

    let p = await progress(a.id);
    assert.deepEqual([p.assigned, p.completed, p.overdue], [3, 0, 0]);
    assert.deepEqual(ids(p), sorted(inDept.id, inPosition.id, named.id));
    assert.ok(p.people.every((x) => x.status === 'pending' && x.done_at === null));
    // Each assignee is told once, with a link to the exam; nobody else is.
    for (const u of [inDept, inPosition, named]) {
      const told = await notices(u.token, '第三季度合规考试（财富管理部）');
      assert.equal(told.length, 1);
      assert.equal(told[0]!.type, 'directed');
      assert.equal(told[0]!.link, `/exams/${paperId}`);
    }
    assert.equal((await notices(outside.token, '第三季度合规考试')).length, 0);

    // A late joiner of the department is assigned (and told by the scan); a leaver is not counted any more.
    const late = await ts.user('employee', { department_id: d1 });
    await moveUser(inDept.id, { department_id: d2 });
    p = await progress(a.id);
    assert.deepEqual(ids(p), sorted(inPosition.id, named.id, late.id));
    assert.deepEqual((await mine(late.token)).map((m) => m.id), [a.id]);
    assert.deepEqual(await mine(inDept.token), []);
    await until(async () => (await notices(late.token, '第三季度合规考试（财富管理部）')).length === 1, 'the late joiner notified');
    const joinerHere = await ts.user('employee', { position_id: p1 });
    await moveUser(outside.id, { department_id: d1 });
    assert.deepEqual(ids(await progress(a.id)), sorted(inPosition.id, named.id, late.id, joinerHere.id, outside.id));
    // Disabled: not counted.
    await moveUser(joinerHere.id, { status: 'disabled' });
    assert.equal((await progress(a.id)).assigned, 4);

    // A failed attempt is not a completion; a passed one is.
    await pass(named.token, false);
    assert.equal((await progress(a.id)).completed, 0);
    await pass(inPosition.token);
    p = await progress(a.id);
    assert.deepEqual([p.assigned, p.completed, p.overdue], [4, 1, 0]);
    const done = p.people.find((x) => x.user_id === inPosition.id)!;
    assert.equal(done.status, 'done');
    assert.ok(done.done_at);
    assert.equal(done.full_name, '李四');
    // Not done first.
    assert.equal(p.people.at(-1)!.user_id, inPosition.id);
    assert.equal((await mine(inPosition.token))[0]!.status, 'done');

    // Filters and paging.
    assert.deepEqual(ids(await progress(a.id, '?status=done')), [inPosition.id]);
    assert.equal((await progress(a.id, '?status=pending')).total, 3);
    assert.deepEqual(ids(await progress(a.id, `?q=${encodeURIComponent('王五')}`)), [named.id]);
    const d1Name = (await ts.api.get(`/api/system/departments/${d1}`, admin())).body.data.name as string;
    assert.deepEqual(ids(await progress(a.id, `?department=${encodeURIComponent(d1Name)}`)), sorted(late.id, outside.id));
    const paged = await progress(a.id, '?page=2&size=3');
    assert.deepEqual([paged.total, paged.page, paged.size, paged.people.length], [4, 2, 3, 1]);
    assert.equal((await ts.api.get(`/api/assignments/${a.id}/progress?status=late`, admin())).status, 400);

    // Past the due date the ones not done are overdue, and listed first in their own list.
    clock.advance(6 * DAY);
    try {
      p = await progress(a.id);
      assert.deepEqual([p.assigned, p.completed, p.overdue], [4, 1, 3]);
      assert.ok(p.people.filter((x) => x.user_id !== inPosition.id).every((x) => x.status === 'overdue'));
      assert.equal((await progress(a.id, '?status=overdue')).total, 3);
      const later = await assign({ target: { user_ids: [named.id] }, due_at: new Date(clock.ms + 3 * DAY).toISOString() });
      const list = await mine(named.token);
      assert.deepEqual(list.map((m) => [m.id, m.status]), [[a.id, 'overdue'], [later.id, 'pending']]);
      const listed = ((await ts.api.get('/api/assignments', admin())).body.data as Assignment[]).find((x) => x.id === a.id)!;
      assert.deepEqual([listed.assigned, listed.completed, listed.overdue], [4, 1, 3]);
    } finally {
      clock.advance(-6 * DAY);
    }
  });

  test('a completed course completes a course assignment', async () => {
    const courseId = await course('理财产品入门');
    const learner = await ts.user();
    const a = await assign({ item: { type: 'course', id: courseId }, target: { user_ids: [learner.id] } });
    assert.equal(a.title, '理财产品入门');
    assert.equal((await notices(learner.token, '理财产品入门'))[0]!.link, `/courses/${courseId}`);
    assert.equal((await ts.api.put(`/api/learning/progress/${courseId}`, { token: learner.token, body: { status: 'viewed' } })).status, 200);
    assert.equal((await progress(a.id)).completed, 0);
    assert.equal((await ts.api.put(`/api/learning/progress/${courseId}`, { token: learner.token, body: { status: 'completed' } })).status, 200);
    const p = await progress(a.id);
    assert.deepEqual([p.assigned, p.completed], [1, 1]);
    assert.equal(p.people[0]!.status, 'done');
    assert.deepEqual((await mine(learner.token)).map((m) => [m.item.type, m.item.name, m.status]), [['course', '理财产品入门', 'done']]);
  });

  test('edit and delete; a start date in the future holds the notice and hides it from the trainee', async () => {
    const [x, y] = [await ts.user(), await ts.user()];
    const a = await assign({ title: unique('未来任务'), target: { user_ids: [x.id] }, starts_at: new Date(clock.ms + DAY).toISOString() });
    assert.deepEqual(await mine(x.token), []);
    assert.equal((await notices(x.token, a.title)).length, 0);
    const edited = await ts.api.put(`/api/assignments/${a.id}`, { ...admin(), body: { target: { user_ids: [x.id, y.id] }, title: `${a.title}（改）` } });
    assert.equal(edited.status, 200, edited.text);
    assert.equal(edited.body.data.title, `${a.title}（改）`);
    assert.equal(edited.body.data.assigned, 2);
    assert.equal((await ts.api.put(`/api/assignments/${a.id}`, { ...admin(), body: { due_at: new Date(clock.ms - DAY).toISOString() } })).body.error, 'assignment.due_in_past');
    clock.advance(DAY + 60_000);
    try {
      await until(async () => (await notices(y.token, a.title)).length === 1, 'the notice once the assignment starts');
      assert.deepEqual((await mine(x.token)).map((m) => m.id), [a.id]);
    } finally {
      clock.advance(-(DAY + 60_000));
    }
    const removed = await ts.api.delete(`/api/assignments/${a.id}`, admin());
    assert.equal(removed.status, 200);
    assert.equal((await ts.api.get(`/api/assignments/${a.id}`, admin())).status, 404);
    assert.equal((await ts.api.delete(`/api/assignments/${a.id}`, admin())).status, 404);
  });

  test('remind tells those not done; the Excel export lists the filtered people', async () => {
    const dept = await department('导出部门');
    const [u1, u2, u3] = [await ts.user('employee', { department_id: dept, full_name: '甲' }), await ts.user('employee', { department_id: dept, full_name: '乙' }), await ts.user('employee', { department_id: dept, full_name: '丙' })];
    const a = await assign({ title: unique('导出任务'), target: { department_ids: [dept] } });
    await pass(u1.token);
    const res = await ts.api.post(`/api/assignments/${a.id}/remind`, admin());
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.data, { reminded: 2 });
    assert.equal((await notices(u1.token, `任务提醒：${a.title}`)).length, 0);
    for (const u of [u2, u3]) assert.equal((await notices(u.token, `任务提醒：${a.title}`)).length, 1);

    const file = await fetch(`${ts.url}/api/assignments/${a.id}/progress/export?tz_offset=480`, { headers: { authorization: `Bearer ${ts.adminToken}` } });
    assert.equal(file.status, 200);
    assert.match(file.headers.get('content-type') ?? '', /spreadsheetml/);
    assert.match(file.headers.get('content-disposition') ?? '', new RegExp(`filename\\*=UTF-8''${encodeURIComponent(`学习任务${a.id}-完成情况-`)}`));
    const { default: Excel } = await import('exceljs');
    const book = new Excel.Workbook();
    await book.xlsx.load(Buffer.from(await file.arrayBuffer()) as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    const rows = sheet.getSheetValues().filter(Boolean).map((r) => (r as unknown[]).slice(1));
    assert.deepEqual(rows[0], ['姓名', '用户名', '部门', '状态', '完成时间', '最高分', '已用次数']);
    assert.equal(rows.length, 4);
    assert.deepEqual(rows.slice(1).map((r) => [r[0], r[3]]).sort(), [['丙', '未完成'], ['乙', '未完成'], ['甲', '已完成']]);
    const filtered = await fetch(`${ts.url}/api/assignments/${a.id}/progress/export?status=done&lang=en`, { headers: { authorization: `Bearer ${ts.adminToken}` } });
    const book2 = new Excel.Workbook();
    await book2.xlsx.load(Buffer.from(await filtered.arrayBuffer()) as unknown as ArrayBuffer);
    const rows2 = book2.worksheets[0]!.getSheetValues().filter(Boolean).map((r) => (r as unknown[]).slice(1));
    assert.deepEqual(rows2.map((r) => r[3]), ['Status', 'done']);
  });
});

describe('assignments: scheduled reminders', () => {
  /** Noon, `days` days from the clock's day, on the server's clock (the due-day reminder starts at that day's midnight). */
  const noonIn = (days: number) => {
    const d = new Date(clock.ms + days * DAY);
    d.setHours(12, 0, 0, 0);
    return d.getTime();
  };
  const settle = () => new Promise((r) => setTimeout(r, SCAN_MS * 6));

  test('one reminder before the due date and one on the day, each once, also across a restart; none for those done', async () => {
    const saved = clock.ms;
    try {
      const [slow, quick] = [await ts.user(), await ts.user()];
      const due = noonIn(5);
      const a = await assign({ title: unique('提醒任务'), target: { user_ids: [slow.id, quick.id] }, due_at: new Date(due).toISOString() });
      await pass(quick.token);
      const before = () => notices(slow.token, `任务提醒：${a.title}`);
      const today = () => notices(slow.token, `今天截止：${a.title}`);
      await settle();
      assert.equal((await before()).length, 0);

      clock.set(due - 2 * DAY + 60_000); // the default: two days before
      await until(async () => (await before()).length === 1, 'the reminder two days before');
      await settle();
      assert.equal((await before()).length, 1);
      assert.equal((await notices(quick.token, `任务提醒：${a.title}`)).length, 0);

      await ts.restart();
      await settle();
      assert.equal((await before()).length, 1);

      const dayStart = new Date(due);
      dayStart.setHours(0, 0, 0, 0);
      clock.set(dayStart.getTime() + 60_000);
      await until(async () => (await today()).length === 1, 'the reminder on the due day');
      await settle();
      await ts.restart();
      await settle();
      assert.equal((await today()).length, 1);
      assert.equal((await before()).length, 1);
      assert.equal((await notices(quick.token, `今天截止：${a.title}`)).length, 0);
    } finally {
      clock.set(saved);
    }
  });

  test('the days before are a system parameter', async () => {
    const saved = clock.ms;
    try {
      assert.equal((await ts.api.put('/api/system/config', { ...admin(), body: { configs: { assignment_reminder_days: 4 } } })).status, 200);
      const u = await ts.user();
      const due = noonIn(8);
      const a = await assign({ title: unique('四天提醒'), target: { user_ids: [u.id] }, due_at: new Date(due).toISOString() });
      clock.set(due - 4 * DAY - 60_000);
      await settle();
      assert.equal((await notices(u.token, `任务提醒：${a.title}`)).length, 0);
      clock.set(due - 4 * DAY + 60_000);
      await until(async () => (await notices(u.token, `任务提醒：${a.title}`)).length === 1, 'the reminder four days before');
      assert.equal((await ts.api.put('/api/system/config', { ...admin(), body: { configs: { assignment_reminder_days: 0 } } })).status, 400);
    } finally {
      await ts.api.put('/api/system/config', { ...admin(), body: { configs: { assignment_reminder_days: 2 } } });
      clock.set(saved);
    }
  });

  test('two servers on one PostgreSQL database send each reminder once', { skip: !usingPostgres && 'PostgreSQL only' }, async () => {
    const saved = clock.ms;
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-second-'));
    const second = await startServer({ ...ts.config, dataDir, port: 0 });
    try {
      const people = await Promise.all(Array.from({ length: 5 }, () => ts.user()));
      const due = noonIn(5);
      const a = await assign({ title: unique('双节点'), target: { user_ids: people.map((p) => p.id) }, due_at: new Date(due).toISOString() });
      const secondApi = new ApiClient(second.url);
      assert.equal((await secondApi.get(`/api/assignments/${a.id}/progress`, admin())).body.data.assigned, 5);
      clock.set(due - 2 * DAY + 60_000);
      for (const p of people) await until(async () => (await notices(p.token, `任务提醒：${a.title}`)).length >= 1, 'the reminder');
      await settle();
      for (const p of people) assert.equal((await notices(p.token, `任务提醒：${a.title}`)).length, 1);
    } finally {
      await second.close();
      await fs.rm(dataDir, { recursive: true, force: true });
      clock.set(saved);
    }
  });
});
