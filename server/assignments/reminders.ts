// The scheduled scan of assignments made here: notices to late joiners once an assignment has started, the
// reminder before the due date (assignment_reminder_days) and the one on the due day. All state is in the database,
// so a restart resumes where it stood; each reminder is claimed by a conditional update (sent_at from null) in the
// transaction that writes its notifications, so with several servers on one PostgreSQL each goes out exactly once
// and no leader is needed (a second claimer waits for the first's row lock, then finds the reminder sent).
import type { Knex } from 'knex';
import type { JobQueue } from '../jobs/queue.js';
import type { Db } from '../db/knex.js';
import { findAssignmentRow, type AssignmentRow } from './assignments.repository.js';
import { notifyNewAssignees, reminderDays, reminderTimes, remindPending, type Clock } from './assignments.service.js';

const DAY_MS = 24 * 3600_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** Assignments made here (they have reminder rows; those synced from a central server do not) that are running now. */
async function running(db: Db, nowMs: number): Promise<AssignmentRow[]> {
  return (await db<AssignmentRow>('assignments as a')
    .where('a.due_at', '>', iso(nowMs))
    .where((q) => q.whereNull('a.starts_at').orWhere('a.starts_at', '<=', iso(nowMs)))
    .whereExists(db('assignment_reminders as r').whereRaw('r.assignment_id = a.id'))
    .select('a.*')) as AssignmentRow[];
}

interface Due {
  assignment_id: number;
  kind: 'before' | 'due_day';
}

/** Sends (or, when it is too late to mean anything, retires) one reminder if this call claims it. */
async function claimAndSend(db: Knex, due: Due, nowMs: number, days: number): Promise<boolean> {
  return db.transaction(async (trx) => {
    const claimed = await trx('assignment_reminders').where({ assignment_id: due.assignment_id, kind: due.kind }).whereNull('sent_at').update({ sent_at: iso(nowMs), recipients: 0 });
    if (!claimed) return false;
    const row = await findAssignmentRow(trx, due.assignment_id);
    if (!row) return false;
    const times = reminderTimes(row.due_at, days);
    const overtaken = due.kind === 'before' && times.due_day <= nowMs; // the due-day reminder says it now
    const late = Date.parse(row.due_at) <= nowMs;
    const notStarted = !!row.starts_at && Date.parse(row.starts_at) > nowMs;
    if (overtaken || late || notStarted) return true;
    const recipients = await remindPending(trx, row, due.kind);
    await trx('assignment_reminders').where({ assignment_id: due.assignment_id, kind: due.kind }).update({ recipients });
    return true;
  });
}

/** One pass; returns how many reminders this pass claimed. */
export async function scanAssignments(db: Knex, nowMs: number): Promise<number> {
  for (const row of await running(db, nowMs)) await db.transaction((trx) => notifyNewAssignees(trx, row, nowMs));
  const days = await reminderDays(db);
  // Every unsent reminder whose time may have come: due within the larger of the reminder's days and one day.
  const candidates = (await db('assignment_reminders as r')
    .join('assignments as a', 'a.id', 'r.assignment_id')
    .whereNull('r.sent_at')
    .where('a.due_at', '<=', iso(nowMs + Math.max(days, 1) * DAY_MS))
    .select('r.assignment_id', 'r.kind', 'a.due_at')) as (Due & { due_at: string })[];
  let claimed = 0;
  for (const candidate of candidates) {
    const at = reminderTimes(candidate.due_at, days)[candidate.kind];
    if (at > nowMs) continue;
    if (await claimAndSend(db, { assignment_id: Number(candidate.assignment_id), kind: candidate.kind }, nowMs, days)) claimed++;
  }
  return claimed;
}

const SCAN_MS = 60_000;

/**
 * The scan as the scheduled job `schedule.assignment-reminders`: every minute (tests may ask for a shorter interval:
 * AppConfig.reminderScanMs), once per cluster on PostgreSQL, one pass at a time.
 */
export function scheduleReminderScan(jobs: JobQueue, db: Knex, clock: Clock, intervalMs = SCAN_MS): void {
  jobs.schedule('assignment-reminders', { everyMs: intervalMs }, async () => {
    await scanAssignments(db, clock());
  });
}
