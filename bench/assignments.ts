// Issue 25: an assignment to 5,000 people. Its progress page against a product page (p99, same run, ≤ 3×), and
// creating it with its 5,000 notifications against inserting the same notification rows with one knex batch
// insert (≤ 2×).
import { performance } from 'node:perf_hooks';
import type { Knex } from 'knex';
import { load, percentile, report, startBenchServer, type BenchContext } from './harness.js';
import { hashPassword } from '../server/auth/passwords.js';
import { now } from '../server/db/time.js';

const PEOPLE = 5000;
const ROUNDS = 5;

export default async function assignments({ baseline }: BenchContext): Promise<void> {
  const server = await startBenchServer({ seed });
  try {
    const auth = { authorization: `Bearer ${server.adminToken}` };
    const department = Number(((await server.db('departments').where({ name: 'Wealth management' }).first('id')) as { id: number }).id);
    const paper = Number(((await server.db('exam_papers').first('id')) as { id: number }).id);
    const due = () => new Date(Date.now() + 7 * 24 * 3600_000).toISOString();
    const create = () => server.api<{ id: number; assigned: number }>('POST', '/api/assignments', server.adminToken, { item: { type: 'exam', id: paper }, target: { department_ids: [department] }, due_at: due() });

    // Creating it (5,000 notices) against one knex batch insert of the same 5,000 notification rows, alternating.
    const created: number[] = [];
    const inserted: number[] = [];
    let assignmentId = 0;
    for (let round = 0; round < ROUNDS; round++) {
      let t = performance.now();
      const a = await create();
      created.push(performance.now() - t);
      if (a.assigned !== PEOPLE) throw new Error(`assigned ${a.assigned}, expected ${PEOPLE}`);
      assignmentId = a.id;
      const stamp = now();
      const rows = Array.from({ length: PEOPLE }, (_, i) => ({
        user_id: i + 2, type: 'directed', title: `新的学习任务：第三季度合规考试`, content: '请通过该考试，截止时间 2026-12-05 18:00。', link: `/exams/${paper}`, read: false, created_at: stamp,
      }));
      t = performance.now();
      // SQLite takes at most 500 rows in one multi-row insert (knex writes it as a compound SELECT).
      await server.db.batchInsert('notifications', rows, 500);
      inserted.push(performance.now() - t);
    }
    const med = (v: number[]) => percentile(v, 0.5);
    console.log(
      `create an assignment to ${PEOPLE} people (HTTP, notices included)  median ${med(created).toFixed(0)} ms  ` +
        `vs knex batchInsert of ${PEOPLE} notifications ${med(inserted).toFixed(0)} ms  = ${(med(created) / med(inserted)).toFixed(2)}x  [target <= 2x]`,
    );

    // One request each first, so both are measured warm (the product page's cache, the progress snapshot).
    await server.api('GET', '/api/products?page=1&size=20', server.adminToken);
    await server.api('GET', `/api/assignments/${assignmentId}/progress?page=1&size=20`, server.adminToken);
    const products = await load({ url: server.url, path: '/api/products?page=1&size=20', headers: auth, duration: 5 });
    report('GET /api/products?page=1&size=20', products, baseline);
    const progress = await load({ url: server.url, path: `/api/assignments/${assignmentId}/progress?page=1&size=20`, headers: auth, duration: 5 });
    report(`GET /api/assignments/{id}/progress (${PEOPLE})`, progress, baseline);
    const filtered = await load({ url: server.url, path: `/api/assignments/${assignmentId}/progress?status=pending&page=2&size=20`, headers: auth, duration: 5 });
    report('  …?status=pending&page=2', filtered, baseline);
    console.log(`progress p99 / products p99 = ${(progress.p99 / products.p99).toFixed(2)}x  [target <= 3x]; filtered ${(filtered.p99 / products.p99).toFixed(2)}x`);
  } finally {
    await server.close();
  }
}

async function seed(db: Knex): Promise<void> {
  const stamp = now();
  const hash = await hashPassword('bench-user-pass');
  const [dept] = await db('departments').insert({ name: 'Wealth management', description: '', created_at: stamp, updated_at: stamp }).returning('id');
  const departmentId = Number((dept as { id: number }).id);
  const users = Array.from({ length: PEOPLE }, (_, i) => ({
    username: `staff${i}`, password_hash: hash, full_name: `员工 ${i}`, role: 'employee', status: 'active', department: 'Wealth management', department_id: departmentId, created_at: stamp, updated_at: stamp,
  }));
  await db.batchInsert('users', users, 500);
  const products = Array.from({ length: 1000 }, (_, i) => ({ code: `P${i}`, name: `Product ${i}`, category: 'capital_consulting', status: 'active', summary: `Summary ${i}`, attributes: '{}', created_at: stamp, updated_at: stamp }));
  await db.batchInsert('products', products, 200);
  const [paper] = await db('exam_papers')
    .insert({ name: '第三季度合规考试', type: 'formal', domain: 'compliance', question_count: 10, total_score: 100, pass_score: 60, duration_minutes: 30, randomize: false, status: 'active', published_at: stamp, created_at: stamp, updated_at: stamp })
    .returning('id');
  const paperId = Number((paper as { id: number }).id);
  // Two in five have passed already.
  const ids = ((await db('users').where({ department_id: departmentId }).orderBy('id').pluck('id')) as number[]).filter((_, i) => i % 5 < 2);
  const sessions = ids.map((user_id, i) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, kind: 'formal', paper_id: paperId, user_id, exam_name: '第三季度合规考试', total_score: 100, pass_score: 60, duration_minutes: 30,
    questions: '[]', started_at: stamp, deadline_at: stamp, submitted_at: stamp, score: 80, passed: true,
  }));
  await db.batchInsert('exam_sessions', sessions, 200);
  const records = sessions.map((s) => ({
    session_id: s.id, paper_id: paperId, user_id: s.user_id, exam_name: s.exam_name, score: 80, total_score: 100, pass_score: 60, passed: true, correct_count: 8, wrong_count: 2, question_count: 10,
    time_spent_sec: 600, late: false, detail: '[]', started_at: stamp, submitted_at: stamp,
  }));
  await db.batchInsert('exam_records', records, 200);
}
