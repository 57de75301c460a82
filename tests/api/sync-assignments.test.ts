// Assignments sync down to branch laptops (their rule, in the branch's ids) with their notices; an exam passed on
// the branch completes the assignment there at once and centrally once its record has synced up; an edit or a
// delete at the central server follows at the next sync. Central and branch are real server processes on loopback
// (central on PostgreSQL in the PostgreSQL pass).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startNode, type Node } from '../support/sync-nodes.js';
import { usingPostgres } from '../support/server.js';
import type { AssignmentProgress, MyAssignment } from '../../contract/assignments.js';
import type { Notification } from '../../contract/notifications.js';
import type { StartedExam } from '../../contract/exams.js';
import { questionBody, uniqueDomain } from './exams-fixtures.js';

let central: Node;
let branch: Node;
const PASSWORD = 'assign-pass-1';

async function ok<T>(res: { status: number; text: string; body: { data: unknown } }, status = 200): Promise<T> {
  assert.equal(res.status, status, res.text);
  return res.body.data as T;
}
const sync = async () => ok(await branch.api.post('/api/sync/run', { token: branch.adminToken }));

describe(`assignments sync down (central on ${usingPostgres ? 'PostgreSQL' : 'SQLite'})`, () => {
  let assignmentId: number;
  let centralPaper: number;
  let dora: string;

  before(async () => {
    central = await startNode({ postgres: usingPostgres });
    branch = await startNode({ postgres: false });
    const admin = { token: central.adminToken };
    const dept = await ok<{ id: number }>(await central.api.post('/api/system/departments', { ...admin, body: { name: '财富管理部' } }), 201);
    for (const [username, full_name] of [['dora', '多拉'], ['eli', '伊莱']]) {
      await ok(await central.api.post('/api/system/users', { ...admin, body: { username, password: PASSWORD, full_name, role: 'employee', department_id: dept.id } }), 201);
    }
    const domain = uniqueDomain('assign_sync');
    for (let i = 0; i < 2; i++) await ok(await central.api.post('/api/exam/questions', { ...admin, body: questionBody(domain, 'single', { stem: `合规问题 ${i}` }) }), 201);
    centralPaper = (
      await ok<{ id: number }>(
        await central.api.post('/api/exam/papers', { ...admin, body: { name: '合规考试', type: 'formal', domain, question_count: 2, total_score: 100, pass_score: 60, duration_minutes: 10, randomize: false } }),
        201,
      )
    ).id;
    const due = new Date(Date.now() + 5 * 24 * 3600_000).toISOString();
    assignmentId = (await ok<{ id: number }>(await central.api.post('/api/assignments', { ...admin, body: { item: { type: 'exam', id: centralPaper }, target: { department_ids: [dept.id] }, due_at: due, title: '合规考试（第三季度）' } }), 201)).id;

    const { enrolment_token } = await ok<{ enrolment_token: string }>(await central.api.post('/api/sync/devices', { ...admin, body: { name: 'Assignments laptop' } }), 201);
    await ok(await branch.api.put('/api/sync/config', { token: branch.adminToken, body: { central_url: central.api.baseUrl, enrolment_token } }));
    await sync();
    dora = await branch.api.login('dora', PASSWORD);
  });
  after(async () => {
    await branch?.close();
    await central?.close();
  });

  test('the assignment, its rule and its notice arrive; the branch computes its assignees', async () => {
    const mine = await ok<MyAssignment[]>(await branch.api.get('/api/assignments/mine', { token: dora }));
    assert.equal(mine.length, 1);
    assert.equal(mine[0]!.title, '合规考试（第三季度）');
    assert.equal(mine[0]!.status, 'pending');
    assert.equal(mine[0]!.item.name, '合规考试');
    const branchPaper = mine[0]!.item.id;
    const list = await ok<{ id: number; assigned: number; target_names: { departments: { name: string }[] } }[]>(await branch.api.get('/api/assignments', { token: branch.adminToken }));
    assert.equal(list.length, 1);
    assert.equal(list[0]!.assigned, 2);
    assert.deepEqual(list[0]!.target_names.departments.map((d) => d.name), ['财富管理部']);
    const notices = (await ok<Notification[]>(await branch.api.get('/api/notifications', { token: dora }))).filter((n) => n.title.includes('合规考试（第三季度）'));
    assert.equal(notices.length, 1);
    assert.equal(notices[0]!.link, `/exams/${branchPaper}`);
  });

  test('a pass on the branch completes it there at once, and centrally after the sync', async () => {
    const mine = await ok<MyAssignment[]>(await branch.api.get('/api/assignments/mine', { token: dora }));
    const session = await ok<StartedExam>(await branch.api.post('/api/exam/start', { token: dora, body: { paper_id: mine[0]!.item.id } }));
    const answers = Object.fromEntries(session.questions.map((q) => [String(q.id), 'B']));
    const result = await ok<{ passed: boolean }>(await branch.api.post('/api/exam/submit', { token: dora, body: { session_id: session.session_id, answers, time_spent_sec: 30 } }));
    assert.equal(result.passed, true);
    assert.equal((await ok<MyAssignment[]>(await branch.api.get('/api/assignments/mine', { token: dora })))[0]!.status, 'done');

    const before = await ok<AssignmentProgress>(await central.api.get(`/api/assignments/${assignmentId}/progress`, { token: central.adminToken }));
    assert.equal(before.completed, 0);
    await sync();
    const after = await ok<AssignmentProgress>(await central.api.get(`/api/assignments/${assignmentId}/progress`, { token: central.adminToken }));
    assert.deepEqual([after.assigned, after.completed], [2, 1]);
    assert.equal(after.people.find((p) => p.full_name === '多拉')!.status, 'done');
  });

  test('an edit and a delete at the central server follow at the next sync', async () => {
    const other = await ok<{ id: number }>(await central.api.post('/api/system/departments', { token: central.adminToken, body: { name: '零售部' } }), 201);
    await ok(await central.api.put(`/api/assignments/${assignmentId}`, { token: central.adminToken, body: { target: { department_ids: [other.id] }, title: '合规考试（零售部）' } }));
    await sync();
    assert.deepEqual(await ok<MyAssignment[]>(await branch.api.get('/api/assignments/mine', { token: dora })), []);
    const list = await ok<{ id: number; title: string; assigned: number }[]>(await branch.api.get('/api/assignments', { token: branch.adminToken }));
    assert.deepEqual(list.map((a) => [a.title, a.assigned]), [['合规考试（零售部）', 0]]);
    await ok(await central.api.delete(`/api/assignments/${assignmentId}`, { token: central.adminToken }));
    await sync();
    assert.deepEqual(await ok(await branch.api.get('/api/assignments', { token: branch.adminToken })), []);
  });
});
