// Who an assignment reaches and who has completed it, computed from the rule at read time and kept while its
// inputs are unchanged: a cached snapshot is used only when a fingerprint of what it was computed from (users,
// departments, positions, the item's records or course completions, the assignment), read in the same statement
// as the assignment's row, still matches, so it is never stale, on one server or several on one PostgreSQL.
import type { Db } from '../db/knex.js';
import type { AssignmentCounts, AssignmentPerson, AssignmentPersonStatus, AssignmentProgress } from '../../contract/assignments.js';
import { returnedRows } from '../db/json-rows.js';
import { perDatabase } from '../db/read-cache.js';
import { SerializedJson } from '../http/envelope.js';
import { notFound } from '../http/errors.js';
import { assignees, completions, type AssignmentRow } from './assignments.repository.js';

/** One person as computed; the status depends on the time it is read. */
interface Person {
  user_id: number;
  full_name: string;
  username: string;
  department: string;
  done_at: string | null;
  best_score: number | null;
  attempts: number | null;
}

interface Snapshot {
  /** Not done first, then by department and name: the first `people.length - completed` are the ones not done. */
  people: Person[];
  completed: number;
  /** Pages already answered from this snapshot, serialized, by their query (a few; the oldest goes first). */
  pages: Map<string, SerializedJson>;
}

const PAGES_KEPT = 32;

// A snapshot of 5,000 people weighs about 1 MB, its kept pages up to 32 × 10 KB.
const snapshots = perDatabase<Snapshot>({ name: 'assignment-progress', maxBytes: 32 * 1024 * 1024, ttlMs: 10 * 60_000, sizeOf: (s) => 64 + s.people.length * 200 + PAGES_KEPT * 10_000 });

// One statement, written once: the row and, beside it, every input of its progress that a write changes. Each
// subquery is one index lookup or a count of a table of staff (users_updated_at_index, course_progress_course_updated_index).
const STATE_SQL = `select a.*,
  (select max(updated_at) from users) as fp_users,
  (select count(*) from users) as fp_user_count,
  (select max(updated_at) from departments) as fp_departments,
  (select count(*) from departments) as fp_department_count,
  (select count(*) from positions) as fp_position_count,
  case when a.item_type = 'exam'
    then cast((select max(r.id) from exam_records r where r.paper_id = a.paper_id) as text) || '/' ||
      cast((select count(*) from exam_sessions s where s.paper_id = a.paper_id) as text)
    when a.item_type = 'roleplay'
    then cast((select count(*) from roleplay_sessions s where s.scenario_id = a.scenario_id and s.status = 'finished') as text)
    else cast((select max(p.updated_at) from course_progress p where p.course_id = a.course_id) as text) end as fp_item
from assignments a where a.id = ?`;

interface State {
  row: AssignmentRow;
  /** The snapshot's key: the assignment and its fingerprint. */
  key: string;
}

/** The assignment's row and its progress inputs' fingerprint, or undefined when there is no such assignment. */
async function stateOf(db: Db, id: number): Promise<State | undefined> {
  const [found] = returnedRows<Record<string, unknown>>(db, await db.raw(STATE_SQL, [id]));
  if (!found) return undefined;
  const { fp_users, fp_user_count, fp_departments, fp_department_count, fp_position_count, fp_item, ...row } = found;
  const assignment = row as unknown as AssignmentRow;
  return { row: assignment, key: [assignment.id, assignment.updated_at, fp_users, fp_user_count, fp_departments, fp_department_count, fp_position_count, fp_item].map(String).join('|') };
}

type PersonRow = { id: number; full_name: string; username: string; department: string; done_at: string | null; best_score?: number | null; attempts?: number | null };

async function compute(db: Db, row: AssignmentRow): Promise<Snapshot> {
  const query = assignees(db, row.id).leftJoin(completions(db, row).as('d'), 'd.user_id', 'u.id').select('u.id', 'u.full_name', 'u.username', 'u.department', 'd.done_at');
  const exam = row.item_type === 'exam';
  if (exam) {
    const best = db('exam_records').where({ paper_id: row.paper_id }).groupBy('user_id').select('user_id', db.raw('max(score) as best_score'));
    const starts = db('exam_sessions').where({ paper_id: row.paper_id }).groupBy('user_id').select('user_id', db.raw('count(*) as attempts'));
    query.leftJoin(best.as('b'), 'b.user_id', 'u.id').leftJoin(starts.as('s'), 's.user_id', 'u.id').select('b.best_score', 's.attempts');
  }
  const rows = (await query) as PersonRow[];
  const people = rows.map((r) => ({
    user_id: Number(r.id),
    full_name: r.full_name,
    username: r.username,
    department: r.department ?? '',
    done_at: r.done_at ?? null,
    best_score: r.best_score === null || r.best_score === undefined ? null : Number(r.best_score),
    attempts: exam ? Number(r.attempts ?? 0) : null,
  }));
  people.sort(
    (a, b) =>
      Number(a.done_at !== null) - Number(b.done_at !== null) ||
      a.department.localeCompare(b.department, 'zh-CN') ||
      a.full_name.localeCompare(b.full_name, 'zh-CN') ||
      a.user_id - b.user_id,
  );
  return { people, completed: people.filter((p) => p.done_at !== null).length, pages: new Map() };
}

async function snapshotOf(db: Db, state: State): Promise<Snapshot> {
  return (await snapshots(db).get(state.key, () => compute(db, state.row)))!;
}

async function requireState(db: Db, id: number): Promise<State> {
  const state = await stateOf(db, id);
  if (!state) throw notFound('Assignment');
  return state;
}

const statusAt = (person: Person, overdue: boolean): AssignmentPersonStatus => (person.done_at !== null ? 'done' : overdue ? 'overdue' : 'pending');

function countsAt(snapshot: Snapshot, row: AssignmentRow, nowMs: number): AssignmentCounts & { isOverdue: boolean } {
  const isOverdue = nowMs > Date.parse(row.due_at);
  const { people, completed } = snapshot;
  return { assigned: people.length, completed, overdue: isOverdue ? people.length - completed : 0, isOverdue };
}

export async function countsOf(db: Db, row: AssignmentRow, nowMs: number): Promise<AssignmentCounts> {
  const state = await stateOf(db, row.id);
  if (!state) return { assigned: 0, completed: 0, overdue: 0 };
  const { isOverdue: _, ...counts } = countsAt(await snapshotOf(db, state), state.row, nowMs);
  return counts;
}

export interface ProgressFilter {
  status?: AssignmentPersonStatus;
  department?: string;
  q?: string;
}

/**
 * Calls `take` with every person matching the filters, in the snapshot's order. A status is a range of the snapshot
 * (the not done first), so only the department and the search look at each person.
 */
function eachMatching(snapshot: Snapshot, isOverdue: boolean, filter: ProgressFilter, take: (person: Person, status: AssignmentPersonStatus) => void): void {
  const { people, completed } = snapshot;
  const notDone = people.length - completed;
  let [from, to] = [0, people.length];
  if (filter.status === 'done') from = notDone;
  else if (filter.status) to = (filter.status === 'overdue') === isOverdue ? notDone : 0;
  const q = filter.q?.toLowerCase();
  for (let i = from; i < to; i++) {
    const person = people[i]!;
    if (filter.department !== undefined && person.department !== filter.department) continue;
    if (q && !person.full_name.toLowerCase().includes(q) && !person.username.toLowerCase().includes(q)) continue;
    take(person, statusAt(person, isOverdue));
  }
}

/** Every person matching the filters (the Excel export), with the assignment's row. */
export async function progressPeople(db: Db, id: number, nowMs: number, filter: ProgressFilter): Promise<{ row: AssignmentRow; counts: AssignmentCounts; people: AssignmentPerson[] }> {
  const state = await requireState(db, id);
  const snapshot = await snapshotOf(db, state);
  const { isOverdue, ...counts } = countsAt(snapshot, state.row, nowMs);
  const people: AssignmentPerson[] = [];
  eachMatching(snapshot, isOverdue, filter, (person, status) => people.push({ ...person, status }));
  return { row: state.row, counts, people };
}

/** A page of the progress, serialized; the same page of the same snapshot at the same side of the due date is kept. */
export async function progressPage(db: Db, id: number, nowMs: number, filter: ProgressFilter & { page: number; size: number }): Promise<SerializedJson> {
  const state = await requireState(db, id);
  const snapshot = await snapshotOf(db, state);
  const { isOverdue, ...counts } = countsAt(snapshot, state.row, nowMs);
  const key = JSON.stringify([isOverdue, filter.status, filter.department, filter.q, filter.page, filter.size]);
  const kept = snapshot.pages.get(key);
  if (kept) return kept;
  const start = (filter.page - 1) * filter.size;
  const people: AssignmentPerson[] = [];
  let total = 0;
  eachMatching(snapshot, isOverdue, filter, (person, status) => {
    if (total >= start && total < start + filter.size) people.push({ ...person, status });
    total++;
  });
  const progress: AssignmentProgress = { ...counts, people, total, page: filter.page, size: filter.size };
  const json = new SerializedJson(JSON.stringify(progress));
  if (snapshot.pages.size >= PAGES_KEPT) snapshot.pages.delete(snapshot.pages.keys().next().value!);
  snapshot.pages.set(key, json);
  return json;
}
