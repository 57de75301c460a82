// Assignments in the database: rows, their target rules, who an assignment reaches now and who has completed it.
import type { Knex } from 'knex';
import type { Db } from '../db/knex.js';
import type { Assignment, AssignmentItemType, AssignmentTarget, AssignmentTargetNames } from '../../contract/assignments.js';

export interface AssignmentRow {
  id: number;
  gid: string;
  title: string;
  item_type: AssignmentItemType;
  paper_id: number | null;
  course_id: number | null;
  scenario_id: number | null;
  starts_at: string | null;
  due_at: string;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

export type TargetKind = 'department' | 'position' | 'user';
export const TARGET_KINDS: readonly [TargetKind, keyof AssignmentTarget][] = [
  ['department', 'department_ids'],
  ['position', 'position_ids'],
  ['user', 'user_ids'],
];

export const findAssignmentRow = (db: Db, id: number): Promise<AssignmentRow | undefined> => db<AssignmentRow>('assignments').where({ id }).first();

type ItemColumns = Pick<AssignmentRow, 'item_type' | 'paper_id' | 'course_id' | 'scenario_id'>;

export const itemIdOf = (row: ItemColumns): number => Number(row.item_type === 'exam' ? row.paper_id : row.item_type === 'roleplay' ? row.scenario_id : row.course_id);

/** Passed role-play sessions with when each was finished (`done_at`), to group by user or scenario. */
export const passedRoleplays = (db: Db): Knex.QueryBuilder =>
  db('roleplay_sessions').where({ status: 'finished', passed: true }).select(db.raw('min(finished_at) as done_at'));

export async function targetsOf(db: Db, ids: number[]): Promise<Map<number, AssignmentTarget>> {
  const map = new Map<number, AssignmentTarget>(ids.map((id) => [id, { department_ids: [], position_ids: [], user_ids: [] }]));
  for (let i = 0; i < ids.length; i += 500) {
    const rows = (await db('assignment_targets')
      .whereIn('assignment_id', ids.slice(i, i + 500))
      .orderBy(['assignment_id', 'kind', 'target_id'])
      .select('assignment_id', 'kind', 'target_id')) as { assignment_id: number; kind: TargetKind; target_id: number }[];
    for (const row of rows) {
      const field = TARGET_KINDS.find(([kind]) => kind === row.kind)?.[1];
      if (field) map.get(Number(row.assignment_id))?.[field].push(Number(row.target_id));
    }
  }
  return map;
}

export async function replaceTargets(db: Db, assignmentId: number, target: AssignmentTarget): Promise<void> {
  await db('assignment_targets').where({ assignment_id: assignmentId }).delete();
  const rows = TARGET_KINDS.flatMap(([kind, field]) => [...new Set(target[field])].map((target_id) => ({ assignment_id: assignmentId, kind, target_id })));
  for (let i = 0; i < rows.length; i += 300) await db('assignment_targets').insert(rows.slice(i, i + 300));
}

export async function targetNames(db: Db, target: AssignmentTarget): Promise<AssignmentTargetNames> {
  const named = async <T>(table: string, ids: number[], columns: string[]): Promise<T[]> =>
    ids.length ? ((await db(table).whereIn('id', ids).orderBy('id').select('id', ...columns)) as T[]) : [];
  const [departments, positions, users] = await Promise.all([
    named<{ id: number; name: string }>('departments', target.department_ids, ['name']),
    named<{ id: number; name: string }>('positions', target.position_ids, ['name']),
    named<{ id: number; full_name: string; username: string }>('users', target.user_ids, ['full_name', 'username']),
  ]);
  const ids = <T extends { id: number }>(rows: T[]) => rows.map((r) => ({ ...r, id: Number(r.id) }));
  return { departments: ids(departments), positions: ids(positions), users: ids(users) };
}

/** The names of papers and courses by id. */
export async function itemNames(db: Db, rows: AssignmentRow[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const papers = rows.filter((r) => r.item_type === 'exam').map((r) => Number(r.paper_id));
  const courses = rows.filter((r) => r.item_type === 'course').map((r) => Number(r.course_id));
  if (papers.length) for (const p of (await db('exam_papers').whereIn('id', papers).select('id', 'name')) as { id: number; name: string }[]) names.set(`exam/${p.id}`, p.name);
  if (courses.length) for (const c of (await db('courses').whereIn('id', courses).select('id', 'title')) as { id: number; title: string }[]) names.set(`course/${c.id}`, c.title);
  const scenarios = rows.filter((r) => r.item_type === 'roleplay').map((r) => Number(r.scenario_id));
  if (scenarios.length) for (const s of (await db('roleplay_scenarios').whereIn('id', scenarios).select('id', 'title')) as { id: number; title: string }[]) names.set(`roleplay/${s.id}`, s.title);
  return names;
}

/**
 * The active users an assignment reaches now: in one of its departments or positions, or named. `u` is the alias of
 * users in the returned query.
 */
export function assignees(db: Db, assignmentId: number): Knex.QueryBuilder {
  const targets = (kind: TargetKind) => db('assignment_targets').where({ assignment_id: assignmentId, kind }).select('target_id');
  return db('users as u')
    .where('u.status', 'active')
    .where((q) => q.whereIn('u.department_id', targets('department')).orWhereIn('u.position_id', targets('position')).orWhereIn('u.id', targets('user')));
}

/** Per user, when they completed the item: the first passed formal record of the paper, or the course's completion. */
export function completions(db: Db, row: ItemColumns): Knex.QueryBuilder {
  if (row.item_type === 'roleplay') return passedRoleplays(db).where({ scenario_id: row.scenario_id }).groupBy('user_id').select('user_id');
  return row.item_type === 'exam'
    ? db('exam_records').where({ paper_id: row.paper_id, passed: true }).groupBy('user_id').select('user_id', db.raw('min(submitted_at) as done_at'))
    : db('course_progress').where({ course_id: row.course_id, status: 'completed' }).select('user_id', 'completed_at as done_at');
}

/** The assignees not done yet (the ones notices and reminders go to). */
export const pendingAssignees = (db: Db, row: AssignmentRow): Knex.QueryBuilder =>
  assignees(db, row.id).whereNotIn('u.id', completions(db, row).clearSelect().select('user_id'));

export function toAssignment(row: AssignmentRow, target: AssignmentTarget, names: AssignmentTargetNames, itemName: string, counts: Pick<Assignment, 'assigned' | 'completed' | 'overdue'>): Assignment {
  return {
    id: Number(row.id),
    title: row.title,
    item: { type: row.item_type, id: itemIdOf(row), name: itemName },
    target,
    target_names: names,
    starts_at: row.starts_at,
    due_at: row.due_at,
    created_by: row.created_by === null ? null : Number(row.created_by),
    created_at: row.created_at,
    updated_at: row.updated_at,
    ...counts,
  };
}
