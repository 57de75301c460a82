// A paper's audience (docs/api/exams.md, "Audience"): null is every active employee; otherwise the people of its
// departments, the people it names, and the assignees of any assignment of the paper. Admins see every paper.
import type { Knex } from 'knex';
import type { Db } from '../db/knex.js';
import type { PaperAudience } from '../../contract/exams.js';
import type { User } from '../../contract/users.js';
import { AppError, validationFailed } from '../http/errors.js';
import { ExamErrorCode } from '../../contract/exams.js';

const KINDS = [
  ['department', 'department_ids', 'departments'],
  ['user', 'user_ids', 'users'],
] as const;

/** The stored audience of each paper (null where the paper is for everyone). */
export async function audiencesOf(db: Db, papers: { id: number; has_audience?: boolean | number | null }[]): Promise<Map<number, PaperAudience | null>> {
  const limited = papers.filter((p) => Boolean(p.has_audience)).map((p) => p.id);
  const result = new Map<number, PaperAudience | null>(papers.map((p) => [p.id, null]));
  for (const id of limited) result.set(id, { department_ids: [], user_ids: [] });
  if (!limited.length) return result;
  const rows = (await db('exam_paper_audience').whereIn('paper_id', limited).orderBy(['paper_id', 'kind', 'target_id']).select('paper_id', 'kind', 'target_id')) as { paper_id: number; kind: string; target_id: number }[];
  for (const row of rows) {
    const audience = result.get(Number(row.paper_id))!;
    const field = KINDS.find(([kind]) => kind === row.kind)?.[1];
    if (audience && field) audience[field].push(Number(row.target_id));
  }
  return result;
}

/** Every department and person named must exist (400 naming the first that does not). */
export async function checkAudience(db: Db, audience: PaperAudience): Promise<void> {
  for (const [, field, table] of KINDS) {
    const wanted = [...new Set(audience[field])];
    if (!wanted.length) continue;
    const found = new Set(((await db(table).whereIn('id', wanted).select('id')) as { id: number }[]).map((r) => Number(r.id)));
    const missing = wanted.find((id) => !found.has(id));
    if (missing !== undefined) throw validationFailed(`Invalid audience.${field}: ${missing} does not exist`, [{ path: `audience.${field}`, message: `${missing} does not exist` }]);
  }
}

/** Replaces a paper's audience (null: everyone). Runs inside the paper's write transaction. */
export async function replaceAudience(db: Db, paperId: number, audience: PaperAudience | null): Promise<void> {
  await db('exam_paper_audience').where({ paper_id: paperId }).delete();
  await db('exam_papers').where({ id: paperId }).update({ has_audience: audience !== null });
  if (!audience) return;
  const rows = KINDS.flatMap(([kind, field]) => [...new Set(audience[field])].map((target_id) => ({ paper_id: paperId, kind, target_id })));
  if (rows.length) await db('exam_paper_audience').insert(rows);
}

/** Papers (of those given) whose assignments reach the user through a department, a position or by name. */
function assignedPapers(db: Db, user: Pick<User, 'id'>): Knex.QueryBuilder {
  const me = db('users').where({ id: user.id });
  return db('assignments as a')
    .join('assignment_targets as t', 't.assignment_id', 'a.id')
    .where('a.item_type', 'exam')
    .where((q) =>
      q
        .where((w) => w.where('t.kind', 'department').whereIn('t.target_id', me.clone().select('department_id')))
        .orWhere((w) => w.where('t.kind', 'position').whereIn('t.target_id', me.clone().select('position_id')))
        .orWhere((w) => w.where('t.kind', 'user').where('t.target_id', user.id)),
    )
    .select('a.paper_id');
}

/** Of these papers, the ids the user may see and start. */
export async function papersOpenTo(db: Db, user: Pick<User, 'id' | 'role'>, papers: { id: number; has_audience?: boolean | number | null }[]): Promise<Set<number>> {
  const open = new Set(papers.filter((p) => user.role === 'admin' || !p.has_audience).map((p) => p.id));
  const limited = papers.filter((p) => !open.has(p.id)).map((p) => p.id);
  if (!limited.length) return open;
  const me = db('users').where({ id: user.id });
  const rows = (await db('exam_paper_audience')
    .whereIn('paper_id', limited)
    .where((q) => q.where((w) => w.where('kind', 'department').whereIn('target_id', me.clone().select('department_id'))).orWhere((w) => w.where('kind', 'user').where('target_id', user.id)))
    .select('paper_id')
    .union(assignedPapers(db, user).whereIn('a.paper_id', limited))) as { paper_id: number }[];
  for (const row of rows) open.add(Number(row.paper_id));
  return open;
}

/** The active employees a paper is announced to: everyone, or its audience and assignees. */
export function audienceUserIds(db: Db, paper: { id: number; has_audience?: boolean | number | null }): Knex.QueryBuilder {
  const employees = db('users').where({ status: 'active', role: 'employee' });
  if (!paper.has_audience) return employees.select('id');
  const targets = (kind: string) => db('exam_paper_audience').where({ paper_id: paper.id, kind }).select('target_id');
  const assigned = (kind: string) =>
    db('assignment_targets as t').join('assignments as a', 'a.id', 't.assignment_id').where({ 'a.item_type': 'exam', 'a.paper_id': paper.id, 't.kind': kind }).select('t.target_id');
  return employees
    .where((q) =>
      q
        .whereIn('department_id', targets('department'))
        .orWhereIn('id', targets('user'))
        .orWhereIn('department_id', assigned('department'))
        .orWhereIn('position_id', assigned('position'))
        .orWhereIn('id', assigned('user')),
    )
    .select('id');
}

/** 403 `exam.not_in_audience` when the paper has an audience the user is not part of. */
export async function assertInAudience(db: Db, user: Pick<User, 'id' | 'role'>, paper: { id: number; has_audience?: boolean | number | null }): Promise<void> {
  if (!(await papersOpenTo(db, user, [{ id: Number(paper.id), has_audience: paper.has_audience }])).has(Number(paper.id))) {
    throw new AppError(403, ExamErrorCode.notInAudience, 'This exam is for another audience: ask your training admin if you should take it');
  }
}
