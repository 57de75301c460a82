// Assignments: validation, create/update/delete, the notices to assignees, manual reminders, the caller's own list.
import type { Db } from '../db/knex.js';
import type { Assignment, AssignmentItemType, AssignmentPersonStatus, AssignmentTarget, MyAssignment, RemindResult } from '../../contract/assignments.js';
import { AssignmentErrorCode } from '../../contract/assignments.js';
import type { User } from '../../contract/users.js';
import { AppError, notFound } from '../http/errors.js';
import { returnedRows } from '../db/json-rows.js';
import { searchAndPage } from '../db/paginate.js';
import { notifyUsers } from '../notifications/notifications.service.js';
import { readConfigValue } from '../system/config.service.js';
import {
  findAssignmentRow,
  itemIdOf,
  itemNames,
  passedRoleplays,
  pendingAssignees,
  replaceTargets,
  TARGET_KINDS,
  targetNames,
  targetsOf,
  toAssignment,
  type AssignmentRow,
} from './assignments.repository.js';
import { countsOf } from './progress.js';
import { lockForTransaction } from '../db/locks.js';
import { assignmentNotice, assignmentReminder, assignmentRescheduled, type NoticeSubject, type ReminderKind } from './messages.js';
import type { CreateInput, UpdateInput } from './assignments.schema.js';

/** Milliseconds since the epoch: the real clock, or the tests' (server/clock.ts). */
export type Clock = () => number;

const DAY_MS = 24 * 3600_000;
const iso = (ms: number) => new Date(ms).toISOString();

const invalid = (code: string, message: string, details?: unknown) => new AppError(400, code, message, details);

interface ItemRef {
  item_type: AssignmentItemType;
  paper_id: number | null;
  course_id: number | null;
  scenario_id: number | null;
  name: string;
}

async function checkItem(db: Db, item: CreateInput['item']): Promise<ItemRef> {
  if (item.type === 'exam') {
    const paper = (await db('exam_papers').where({ id: item.id }).first('id', 'name', 'type', 'status')) as { name: string; type: string; status: string } | undefined;
    if (!paper || paper.status !== 'active') throw invalid(AssignmentErrorCode.itemNotFound, `Exam paper ${item.id} does not exist`, { type: item.type, id: item.id });
    if (paper.type !== 'formal') throw invalid(AssignmentErrorCode.paperNotFormal, `Exam paper ${item.id} is not a formal exam`, { id: item.id });
    return { item_type: 'exam', paper_id: item.id, course_id: null, scenario_id: null, name: paper.name };
  }
  if (item.type === 'roleplay') {
    const scenario = (await db('roleplay_scenarios').where({ id: item.id }).first('title', 'status')) as { title: string; status: string } | undefined;
    if (!scenario || scenario.status !== 'active') throw invalid(AssignmentErrorCode.itemNotFound, `Role-play scenario ${item.id} does not exist`, { type: item.type, id: item.id });
    return { item_type: 'roleplay', paper_id: null, course_id: null, scenario_id: item.id, name: scenario.title };
  }
  const course = (await db('courses').where({ id: item.id }).first('id', 'title', 'status')) as { title: string; status: string } | undefined;
  if (!course || course.status !== 'active') throw invalid(AssignmentErrorCode.itemNotFound, `Course ${item.id} does not exist`, { type: item.type, id: item.id });
  return { item_type: 'course', paper_id: null, course_id: item.id, scenario_id: null, name: course.title };
}

async function checkTarget(db: Db, input: CreateInput['target']): Promise<AssignmentTarget> {
  const target: AssignmentTarget = {
    department_ids: [...new Set(input.department_ids ?? [])],
    position_ids: [...new Set(input.position_ids ?? [])],
    user_ids: [...new Set(input.user_ids ?? [])],
  };
  if (!target.department_ids.length && !target.position_ids.length && !target.user_ids.length) {
    throw invalid(AssignmentErrorCode.emptyTarget, 'Choose at least one department, position or person');
  }
  const tables = { department: 'departments', position: 'positions', user: 'users' } as const;
  for (const [kind, field] of TARGET_KINDS) {
    const wanted = target[field];
    const found = new Set<number>();
    for (let i = 0; i < wanted.length; i += 500) {
      for (const id of await db(tables[kind]).whereIn('id', wanted.slice(i, i + 500)).pluck('id')) found.add(Number(id));
    }
    const missing = wanted.filter((id) => !found.has(id));
    if (missing.length) throw invalid(AssignmentErrorCode.targetNotFound, `Unknown ${kind} ${missing.slice(0, 10).join(', ')}`, { kind, ids: missing });
  }
  return target;
}

function checkDates(due_at: string, starts_at: string | null, nowMs: number, dueChanged: boolean): void {
  if (dueChanged && Date.parse(due_at) <= nowMs) throw invalid(AssignmentErrorCode.dueInPast, 'The due date has passed', { due_at });
  if (starts_at && Date.parse(starts_at) >= Date.parse(due_at)) throw invalid(AssignmentErrorCode.dueBeforeStart, 'The due date must come after the start', { due_at, starts_at });
}

const defaultTitle = (item: ItemRef) => item.name.slice(0, 200);

export const reminderDays = async (db: Db): Promise<number> => Number(await readConfigValue<number>(db, 'assignment_reminder_days'));

/** When each scheduled reminder is due: `before` (the parameter's days before), `due_day` (the due day's start, server time). */
export function reminderTimes(dueAt: string, days: number): Record<'before' | 'due_day', number> {
  const due = Date.parse(dueAt);
  const dayStart = new Date(due);
  dayStart.setHours(0, 0, 0, 0);
  return { before: due - days * DAY_MS, due_day: dayStart.getTime() };
}

/**
 * The two scheduled reminders of an assignment made here, unsent; one whose time has already come when the
 * assignment is made (or its due date moved) counts as sent to nobody: the notice itself tells the same.
 */
async function armReminders(db: Db, row: AssignmentRow, nowMs: number): Promise<void> {
  const times = reminderTimes(row.due_at, await reminderDays(db));
  await db('assignment_reminders').where({ assignment_id: row.id }).delete();
  await db('assignment_reminders').insert(
    (['before', 'due_day'] as const).map((kind) => ({
      assignment_id: row.id,
      kind,
      sent_at: times[kind] <= nowMs ? iso(nowMs) : null,
      recipients: times[kind] <= nowMs ? 0 : null,
    })),
  );
}

export const subjectOf = async (db: Db, row: AssignmentRow): Promise<NoticeSubject> => ({
  title: row.title,
  item_type: row.item_type,
  item_id: itemIdOf(row),
  due_at: row.due_at,
  time_zone: await readConfigValue<string>(db, 'timezone'),
});

/**
 * Tells every assignee not done and not told yet (at creation, then late joiners at each scan): the key of
 * assignment_notified makes it once per person, also with several servers. Returns how many were told.
 */
export async function notifyNewAssignees(db: Db, row: AssignmentRow, nowMs: number): Promise<number> {
  const source = pendingAssignees(db, row)
    .whereNotExists(db('assignment_notified as n').where('n.assignment_id', row.id).whereRaw('n.user_id = u.id'))
    .select(db.raw('? as assignment_id', [row.id]), 'u.id as user_id', db.raw('? as notified_at', [iso(nowMs)]));
  const select = source.toSQL();
  // The SELECT has a WHERE, so SQLite reads the ON CONFLICT as the insert's upsert clause, not a join's.
  const inserted = returnedRows<{ user_id: number }>(
    db,
    await db.raw(`INSERT INTO assignment_notified (assignment_id, user_id, notified_at) ${select.sql} ON CONFLICT DO NOTHING RETURNING user_id`, [...select.bindings]),
  );
  if (!inserted.length) return 0;
  const recipients = await localesOf(db, inserted.map((r) => Number(r.user_id)));
  return notifyUsers(db, recipients, assignmentNotice(await subjectOf(db, row)));
}

async function localesOf(db: Db, ids: number[]): Promise<{ id: number; locale: string | null }[]> {
  const out: { id: number; locale: string | null }[] = [];
  for (let i = 0; i < ids.length; i += 5000) out.push(...((await db('users').whereIn('id', ids.slice(i, i + 5000)).select('id', 'locale')) as { id: number; locale: string | null }[]));
  return out;
}

/** Tells every assignee not done yet (and already told of the assignment) that its due date moved. */
export async function notifyRescheduled(db: Db, row: AssignmentRow, previousDueAt: string): Promise<number> {
  const recipients = (await pendingAssignees(db, row)
    .whereExists(db('assignment_notified as n').where('n.assignment_id', row.id).whereRaw('n.user_id = u.id'))
    .select('u.id', 'u.locale')) as { id: number; locale: string | null }[];
  return recipients.length ? notifyUsers(db, recipients, assignmentRescheduled(await subjectOf(db, row), previousDueAt)) : 0;
}

/** Sends a reminder to every assignee not done. */
export async function remindPending(db: Db, row: AssignmentRow, kind: ReminderKind): Promise<number> {
  const recipients = (await pendingAssignees(db, row).select('u.id', 'u.locale')) as { id: number; locale: string | null }[];
  return recipients.length ? notifyUsers(db, recipients, assignmentReminder(await subjectOf(db, row), kind)) : 0;
}

const started = (row: Pick<AssignmentRow, 'starts_at'>, nowMs: number) => !row.starts_at || Date.parse(row.starts_at) <= nowMs;

async function describe(db: Db, rows: AssignmentRow[], nowMs: number): Promise<Assignment[]> {
  const [targets, names] = await Promise.all([targetsOf(db, rows.map((r) => Number(r.id))), itemNames(db, rows)]);
  return Promise.all(
    rows.map(async (row) => {
      const target = targets.get(Number(row.id))!;
      return toAssignment(row, target, await targetNames(db, target), names.get(`${row.item_type}/${itemIdOf(row)}`) ?? '', await countsOf(db, row, nowMs));
    }),
  );
}

export async function getAssignment(db: Db, id: number, nowMs: number): Promise<Assignment> {
  const row = await findAssignmentRow(db, id);
  if (!row) throw notFound('Assignment');
  return (await describe(db, [row], nowMs))[0]!;
}

export async function requireAssignmentRow(db: Db, id: number): Promise<AssignmentRow> {
  const row = await findAssignmentRow(db, id);
  if (!row) throw notFound('Assignment');
  return row;
}

/** Newest due date first; `q` searches the title. */
export async function listAssignments(db: Db, filter: { q?: string; page?: number; size?: number }, nowMs: number): Promise<Assignment[]> {
  const query = db<AssignmentRow>('assignments').orderBy([{ column: 'due_at', order: 'desc' }, { column: 'id', order: 'desc' }]);
  return describe(db, (await searchAndPage(query, ['title'], filter)) as AssignmentRow[], nowMs);
}

/**
 * A double click on publish sends one assignment twice (at once, or a moment apart): the same admin's assignment of
 * the same item, title, dates and people made within this window is answered again instead of made and announced twice.
 */
const REPEAT_WINDOW_MS = 10_000;

const targetKey = (target: AssignmentTarget) => JSON.stringify(TARGET_KINDS.map(([, field]) => [...new Set(target[field])].sort((a, b) => a - b)));

async function sameAssignmentJustMade(trx: Db, fields: Record<string, unknown>, target: AssignmentTarget, nowMs: number): Promise<number | undefined> {
  const ids = ((await trx('assignments').where(fields).andWhere('created_at', '>=', iso(nowMs - REPEAT_WINDOW_MS)).pluck('id')) as number[]).map(Number);
  if (!ids.length) return undefined;
  const targets = await targetsOf(trx, ids);
  return ids.find((id) => targetKey(targets.get(id)!) === targetKey(target));
}

export async function createAssignment(db: Db, input: CreateInput, by: User, nowMs: number): Promise<Assignment> {
  const item = await checkItem(db, input.item);
  const target = await checkTarget(db, input.target);
  checkDates(input.due_at, input.starts_at ?? null, nowMs, true);
  const id = await db.transaction(async (trx) => {
    const stamp = iso(nowMs);
    const fields = {
      title: input.title || defaultTitle(item),
      item_type: item.item_type,
      paper_id: item.paper_id,
      course_id: item.course_id,
      scenario_id: item.scenario_id,
      starts_at: input.starts_at ?? null,
      due_at: input.due_at,
      created_by: by.id,
    };
    await lockForTransaction(trx, `assignment-create:${by.id}`);
    const repeated = await sameAssignmentJustMade(trx, fields, target, nowMs);
    if (repeated !== undefined) return repeated;
    const [inserted] = await trx('assignments')
      .insert({ ...fields, created_at: stamp, updated_at: stamp })
      .returning('id');
    const id = Number((inserted as { id: number }).id);
    await replaceTargets(trx, id, target);
    const row = (await findAssignmentRow(trx, id))!;
    await armReminders(trx, row, nowMs);
    if (started(row, nowMs)) await notifyNewAssignees(trx, row, nowMs);
    return id;
  });
  return getAssignment(db, id, nowMs);
}

export async function updateAssignment(db: Db, id: number, input: UpdateInput, nowMs: number): Promise<Assignment> {
  const current = await requireAssignmentRow(db, id);
  const item = input.item ? await checkItem(db, input.item) : undefined;
  const target = input.target ? await checkTarget(db, input.target) : undefined;
  const due_at = input.due_at ?? current.due_at;
  const starts_at = input.starts_at !== undefined ? input.starts_at : current.starts_at;
  checkDates(due_at, starts_at, nowMs, input.due_at !== undefined && input.due_at !== current.due_at);
  await db.transaction(async (trx) => {
    await trx('assignments')
      .where({ id })
      .update({
        ...(input.title !== undefined && { title: input.title || (item ? defaultTitle(item) : current.title) }),
        ...(item && { item_type: item.item_type, paper_id: item.paper_id, course_id: item.course_id, scenario_id: item.scenario_id }),
        due_at,
        starts_at,
        // Later than any earlier stamp even when the clock is behind: the cached progress must see the change.
        updated_at: iso(Math.max(nowMs, Date.parse(current.updated_at) + 1)),
      });
    if (target) await replaceTargets(trx, id, target);
    const row = (await findAssignmentRow(trx, id))!;
    if (due_at !== current.due_at) {
      await armReminders(trx, row, nowMs);
      await notifyRescheduled(trx, row, current.due_at);
    }
    if (started(row, nowMs) && Date.parse(row.due_at) > nowMs) await notifyNewAssignees(trx, row, nowMs);
  });
  return getAssignment(db, id, nowMs);
}

export async function deleteAssignment(db: Db, id: number): Promise<void> {
  await requireAssignmentRow(db, id);
  await db('assignments').where({ id }).delete();
}

export async function remindNow(db: Db, id: number): Promise<RemindResult> {
  const row = await requireAssignmentRow(db, id);
  return { reminded: await db.transaction((trx) => remindPending(trx, row, 'manual')) };
}

const STATUS_ORDER: Record<AssignmentPersonStatus, number> = { overdue: 0, pending: 1, done: 2 };

/** The caller's started assignments: overdue first, then pending by due date, then done (latest first). */
export async function myAssignments(db: Db, user: User, nowMs: number): Promise<MyAssignment[]> {
  const rule = db('assignment_targets')
    .where((q) => {
      q.where({ kind: 'user', target_id: user.id });
      if (user.department_id) q.orWhere({ kind: 'department', target_id: user.department_id });
      if (user.position_id) q.orWhere({ kind: 'position', target_id: user.position_id });
    })
    .select('assignment_id');
  const rows = (await db<AssignmentRow>('assignments')
    .whereIn('id', rule)
    .where((q) => q.whereNull('starts_at').orWhere('starts_at', '<=', iso(nowMs)))) as AssignmentRow[];
  if (!rows.length) return [];
  const papers = rows.filter((r) => r.item_type === 'exam').map((r) => Number(r.paper_id));
  const courses = rows.filter((r) => r.item_type === 'course').map((r) => Number(r.course_id));
  const done = new Map<string, string>();
  if (papers.length) {
    const passed = (await db('exam_records').where({ user_id: user.id, passed: true }).whereIn('paper_id', papers).groupBy('paper_id').select('paper_id', db.raw('min(submitted_at) as done_at'))) as { paper_id: number; done_at: string }[];
    for (const p of passed) done.set(`exam/${p.paper_id}`, p.done_at);
  }
  if (courses.length) {
    const completed = (await db('course_progress').where({ user_id: user.id, status: 'completed' }).whereIn('course_id', courses).select('course_id', 'completed_at')) as { course_id: number; completed_at: string }[];
    for (const c of completed) done.set(`course/${c.course_id}`, c.completed_at);
  }
  const scenarios = rows.filter((r) => r.item_type === 'roleplay').map((r) => Number(r.scenario_id));
  if (scenarios.length) {
    const passed = (await passedRoleplays(db).where('user_id', user.id).whereIn('scenario_id', scenarios).groupBy('scenario_id').select('scenario_id')) as { scenario_id: number; done_at: string }[];
    for (const p of passed) done.set(`roleplay/${p.scenario_id}`, p.done_at);
  }
  const names = await itemNames(db, rows);
  const mine = rows.map((row): MyAssignment => {
    const key = `${row.item_type}/${itemIdOf(row)}`;
    const done_at = done.get(key) ?? null;
    const status: AssignmentPersonStatus = done_at ? 'done' : nowMs > Date.parse(row.due_at) ? 'overdue' : 'pending';
    return { id: Number(row.id), title: row.title, item: { type: row.item_type, id: itemIdOf(row), name: names.get(key) ?? '' }, starts_at: row.starts_at, due_at: row.due_at, status, done_at };
  });
  return mine.sort(
    (a, b) =>
      STATUS_ORDER[a.status] - STATUS_ORDER[b.status] ||
      (a.status === 'done' ? (b.done_at ?? '').localeCompare(a.done_at ?? '') : a.due_at.localeCompare(b.due_at)) ||
      a.id - b.id,
  );
}
