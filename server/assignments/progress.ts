// Who an assignment reaches and who has completed it, computed from the rule at read time and kept while its
// inputs are unchanged: a cached snapshot is used only when a one-query fingerprint of what it was computed from
// (users, departments, positions, the item's records or course completions, the assignment) still matches, so it is
// never stale, on one server or several on one PostgreSQL.
import type { Db } from '../db/knex.js';
import type { AssignmentCounts, AssignmentPerson, AssignmentPersonStatus, AssignmentProgress } from '../../contract/assignments.js';
import { perDatabase } from '../db/read-cache.js';
import { assignees, completions, type AssignmentRow } from './assignments.repository.js';

/** One person as computed; the status depends on the time it is read. */
interface Person {
  user_id: number;
  full_name: string;
  username: string;
  department: string;
  done_at: string | null;
}

interface Snapshot {
  /** Not done first, then by department and name. */
  people: Person[];
  completed: number;
}

// A snapshot of 5,000 people weighs about 1 MB.
const snapshots = perDatabase<Snapshot>({ name: 'assignment-progress', maxBytes: 32 * 1024 * 1024, ttlMs: 10 * 60_000, sizeOf: (s) => 64 + s.people.length * 200 });

/** What the assignment's progress is computed from, as one string; any write to those inputs changes it. */
async function fingerprint(db: Db, row: AssignmentRow): Promise<string> {
  const item =
    row.item_type === 'exam'
      ? db('exam_records').where({ paper_id: row.paper_id }).max('id')
      : db('course_progress').where({ course_id: row.course_id }).max('updated_at');
  const result = (await db
    .select(
      db('users').max('updated_at').as('users'),
      db('users').count('*').as('user_count'),
      db('departments').max('updated_at').as('departments'),
      db('departments').count('*').as('department_count'),
      db('positions').count('*').as('position_count'),
      item.as('item'),
      db('assignments').where({ id: row.id }).select('updated_at').as('updated_at'),
    )
    .first()) as Record<string, unknown>;
  return Object.values(result).map(String).join('|');
}

async function compute(db: Db, row: AssignmentRow): Promise<Snapshot> {
  const rows = (await assignees(db, row.id)
    .leftJoin(completions(db, row).as('d'), 'd.user_id', 'u.id')
    .select('u.id', 'u.full_name', 'u.username', 'u.department', 'd.done_at')) as { id: number; full_name: string; username: string; department: string; done_at: string | null }[];
  const people = rows.map((r) => ({ user_id: Number(r.id), full_name: r.full_name, username: r.username, department: r.department ?? '', done_at: r.done_at ?? null }));
  people.sort(
    (a, b) =>
      Number(a.done_at !== null) - Number(b.done_at !== null) ||
      a.department.localeCompare(b.department, 'zh-CN') ||
      a.full_name.localeCompare(b.full_name, 'zh-CN') ||
      a.user_id - b.user_id,
  );
  return { people, completed: people.filter((p) => p.done_at !== null).length };
}

async function snapshotOf(db: Db, row: AssignmentRow): Promise<Snapshot> {
  const key = `${row.id}/${await fingerprint(db, row)}`;
  return (await snapshots(db).get(key, () => compute(db, row)))!;
}

const statusAt = (person: Person, overdue: boolean): AssignmentPersonStatus => (person.done_at !== null ? 'done' : overdue ? 'overdue' : 'pending');

export async function countsOf(db: Db, row: AssignmentRow, nowMs: number): Promise<AssignmentCounts> {
  const { people, completed } = await snapshotOf(db, row);
  const overdue = nowMs > Date.parse(row.due_at);
  return { assigned: people.length, completed, overdue: overdue ? people.length - completed : 0 };
}

export interface ProgressFilter {
  status?: AssignmentPersonStatus;
  department?: string;
  q?: string;
}

/** Every person matching the filters, in the snapshot's order. */
export async function progressPeople(db: Db, row: AssignmentRow, nowMs: number, filter: ProgressFilter): Promise<{ counts: AssignmentCounts; people: AssignmentPerson[] }> {
  const { people, completed } = await snapshotOf(db, row);
  const overdue = nowMs > Date.parse(row.due_at);
  const q = filter.q?.toLowerCase();
  const matching: AssignmentPerson[] = [];
  for (const person of people) {
    const status = statusAt(person, overdue);
    if (filter.status && status !== filter.status) continue;
    if (filter.department !== undefined && person.department !== filter.department) continue;
    if (q && !person.full_name.toLowerCase().includes(q) && !person.username.toLowerCase().includes(q)) continue;
    matching.push({ ...person, status });
  }
  return { counts: { assigned: people.length, completed, overdue: overdue ? people.length - completed : 0 }, people: matching };
}

export async function progressPage(db: Db, row: AssignmentRow, nowMs: number, filter: ProgressFilter & { page: number; size: number }): Promise<AssignmentProgress> {
  const start = (filter.page - 1) * filter.size;
  if (!filter.status && filter.department === undefined && !filter.q) {
    // The common case, a page of everyone: only that page is turned into the answer's shape.
    const { people, completed } = await snapshotOf(db, row);
    const overdue = nowMs > Date.parse(row.due_at);
    const page = people.slice(start, start + filter.size).map((person) => ({ ...person, status: statusAt(person, overdue) }));
    return { assigned: people.length, completed, overdue: overdue ? people.length - completed : 0, people: page, total: people.length, page: filter.page, size: filter.size };
  }
  const { counts, people } = await progressPeople(db, row, nowMs, filter);
  return { ...counts, people: people.slice(start, start + filter.size), total: people.length, page: filter.page, size: filter.size };
}
