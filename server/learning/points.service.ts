// The points ledger: awards (each source once per user), a user's total and rank, and the department leaderboard.
import type { Db } from '../db/knex.js';
import type { DepartmentStanding, Leaderboard, PointEvent, PointSource, PointsSummary, UserStanding } from '../../contract/learning.js';
import { toNullableNumber, toNumber } from '../db/rows.js';
import { now } from '../db/time.js';
import { insertJsonRows, type Columns } from '../db/json-rows.js';

export interface Award {
  user_id: number;
  source_type: PointSource;
  source_id: number;
  record_id?: number | null;
  points: number;
  reason: string;
}

type AwardRow = Award & { record_id: number | null; created_at: string };

const AWARD_COLUMNS: Columns<AwardRow> = [
  ['user_id', 'integer'], ['source_type', 'text'], ['source_id', 'integer'], ['record_id', 'integer'], ['points', 'integer'], ['reason', 'text'], ['created_at', 'text'],
];

/**
 * Adds the awards in one statement, skipping every one whose source already paid the user (also a repeat within the
 * list); returns the awards actually made.
 */
export async function awardPointsBatch(db: Db, awards: Award[], at = now()): Promise<Award[]> {
  const rows = awards.map((a): AwardRow => ({ ...a, record_id: a.record_id ?? null, created_at: at }));
  const inserted = await insertJsonRows<AwardRow, Award>(db, 'point_events', AWARD_COLUMNS, rows, 'ON CONFLICT (user_id, source_type, source_id) DO NOTHING RETURNING user_id, source_type, source_id');
  const made = new Set(inserted.map((r) => `${r.user_id}/${r.source_type}/${r.source_id}`));
  return awards.filter((a) => made.delete(`${a.user_id}/${a.source_type}/${a.source_id}`));
}

/** One award, unless the user already earned points from that source; returns the points actually awarded. */
export async function awardPoints(db: Db, award: Award, at = now()): Promise<number> {
  return (await awardPointsBatch(db, [award], at)).length ? award.points : 0;
}

/** Points earned by one exam record (0 when it earned none). */
export async function pointsOfRecord(db: Db, recordId: number): Promise<number> {
  const row = await db('point_events').where({ record_id: recordId }).sum({ total: 'points' }).first();
  return toNumber(row?.total);
}

type PointEventRow = PointEvent & { user_id: number };

const toEvent = (r: PointEventRow): PointEvent => ({
  id: Number(r.id),
  source_type: r.source_type,
  source_id: Number(r.source_id),
  record_id: toNullableNumber(r.record_id),
  points: toNumber(r.points),
  reason: r.reason,
  created_at: r.created_at,
});

/** Totals of the ranked population: active employees, with 0 for those without points. */
const employeeTotals = (db: Db) =>
  db('users as u')
    .leftJoin('point_events as p', 'p.user_id', 'u.id')
    .where({ 'u.role': 'employee', 'u.status': 'active' })
    .groupBy('u.id', 'u.username', 'u.full_name', 'u.department')
    .select('u.id', 'u.username', 'u.full_name', 'u.department', db.raw('coalesce(sum(p.points), 0) as points'));

/** Competition ranking (1, 2, 2, 4) of rows already sorted by value descending. */
function ranked<T>(rows: T[], value: (row: T) => number): (T & { rank: number })[] {
  let rank = 0;
  return rows.map((row, i) => {
    if (i === 0 || value(rows[i - 1]!) !== value(row)) rank = i + 1;
    return { ...row, rank };
  });
}

export async function pointsSummary(db: Db, userId: number): Promise<PointsSummary> {
  const [totalRow, events, user] = await Promise.all([
    db('point_events').where({ user_id: userId }).sum({ total: 'points' }).first(),
    db<PointEventRow>('point_events').where({ user_id: userId }).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(100),
    db('users').where({ id: userId }).first('role', 'status'),
  ]);
  const total = toNumber(totalRow?.total);
  let rank: number | null = null;
  if (user?.role === 'employee' && user.status === 'active') {
    const ahead = await db.from(employeeTotals(db).as('t')).where('t.points', '>', total).count({ count: '*' }).first();
    rank = toNumber(ahead?.count) + 1;
  }
  return { user_id: userId, total, rank, events: events.map(toEvent) };
}

export async function leaderboard(db: Db, filter: { department?: string; limit: number }): Promise<Leaderboard> {
  const totals = db.from(employeeTotals(db).as('t'));
  const [departmentRows, userRows] = await Promise.all([
    totals
      .clone()
      .groupBy('t.department')
      .select('t.department', db.raw('sum(t.points) as total_points'), db.raw('count(*) as member_count'))
      .orderBy([{ column: 'total_points', order: 'desc' }, { column: 't.department', order: 'asc' }]),
    (filter.department === undefined ? totals.clone() : totals.clone().where('t.department', filter.department))
      .select('t.*')
      .orderBy([{ column: 't.points', order: 'desc' }, { column: 't.id', order: 'asc' }])
      .limit(filter.limit),
  ]);
  const departments = (departmentRows as Record<string, unknown>[]).map((r) => {
    const total = toNumber(r.total_points);
    const members = toNumber(r.member_count);
    return { department: String(r.department), total_points: total, member_count: members, average_points: members ? Math.round((total / members) * 100) / 100 : 0 };
  });
  const users = (userRows as Record<string, unknown>[]).map((r) => ({
    user_id: Number(r.id),
    full_name: String(r.full_name),
    username: String(r.username),
    department: String(r.department),
    points: toNumber(r.points),
  }));
  return {
    departments: ranked(departments, (d) => d.total_points) satisfies DepartmentStanding[],
    users: ranked(users, (u) => u.points) satisfies UserStanding[],
  };
}
