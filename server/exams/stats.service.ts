// Everyone's formal exam records in figures (GET /api/system/exam-stats): pass rates per paper and department,
// the score distribution and the trend, each one grouped query over the same filtered records.
import type { Knex } from 'knex';
import type { Db } from '../db/knex.js';
import type { DepartmentFigures, ExamStats, NotTaken, PaperFigures, PeopleFigures, RecordFigures, ScoreBucket, TrendPoint } from '../../contract/exam-stats.js';
import type { Page } from '../../contract/envelope.js';
import { paginate } from '../db/paginate.js';
import { whereContains } from '../db/contains.js';
import { toNumber } from '../db/rows.js';
import type { StatsFilter } from './exams.schema.js';
import { whereRecordMatches, type RecordSelection } from './records.repository.js';

/** Papers and departments shown, most records first: a chart of more would be unreadable. */
const MAX_GROUPS = 100;
const BUCKETS = 10;
/** No department and an empty one are the same group. */
const DEPARTMENT = "coalesce(u.department, '')";

interface Sums {
  records: unknown;
  passed: unknown;
  percent_sum: unknown;
}

const SUMS = [
  'count(*) as records',
  'sum(case when r.passed then 1 else 0 end) as passed',
  'sum(r.score * 100.0 / r.total_score) as percent_sum',
];

/** The same records counted by person: who took the exam, who passed it at least once. */
const PEOPLE = ['count(distinct r.user_id) as people', 'count(distinct case when r.passed then r.user_id end) as people_passed'];

interface People {
  people: unknown;
  people_passed: unknown;
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

function figures(row: Sums | undefined): RecordFigures {
  const records = toNumber(row?.records);
  const passed = toNumber(row?.passed);
  const percentSum = toNumber(row?.percent_sum);
  return { records, passed, pass_rate: records ? round(passed / records, 4) : 0, average_percent: records ? round(percentSum / records, 2) : 0 };
}

function peopleFigures(row: People | undefined): PeopleFigures {
  const people = toNumber(row?.people);
  const passed = toNumber(row?.people_passed);
  return { people, people_passed: passed, people_pass_rate: people ? round(passed / people, 4) : 0 };
}

const selected = (db: Db, filter: RecordSelection): Knex.QueryBuilder =>
  whereRecordMatches(db('exam_records as r').join('users as u', 'u.id', 'r.user_id'), filter);

/** 0 for 0–10 %, …, 9 for 90–100 % of the total (100 % included). */
const bucketExpression = () => {
  const percent = 'r.score * 100.0 / r.total_score';
  const cases = Array.from({ length: BUCKETS - 1 }, (_, i) => BUCKETS - 1 - i).map((b) => `when ${percent} >= ${b * (100 / BUCKETS)} then ${b}`);
  return `case ${cases.join(' ')} else 0 end`;
};

/** Hours in UTC (`2026-11-22T07`) moved to the reader's zone and cut to their day or month. */
function periodOf(hour: string, filter: StatsFilter): string {
  const local = new Date(Date.parse(`${hour}:00:00Z`) + filter.tz_offset * 60_000).toISOString();
  return local.slice(0, filter.granularity === 'month' ? 7 : 10);
}

async function trend(db: Db, filter: StatsFilter): Promise<TrendPoint[]> {
  // Grouped by hour in SQL (substr works alike on SQLite and PostgreSQL), then by the reader's day or month here:
  // at most 24 rows a day, and no time zone arithmetic in SQL.
  const rows = (await selected(db, filter)
    .select(db.raw('substr(r.submitted_at, 1, 13) as hour'), ...SUMS.map((s) => db.raw(s)))
    .groupByRaw('substr(r.submitted_at, 1, 13)')) as (Sums & { hour: string })[];
  const periods = new Map<string, { records: number; passed: number; percent_sum: number }>();
  for (const row of rows) {
    const period = periodOf(row.hour, filter);
    const sum = periods.get(period) ?? { records: 0, passed: 0, percent_sum: 0 };
    sum.records += toNumber(row.records);
    sum.passed += toNumber(row.passed);
    sum.percent_sum += toNumber(row.percent_sum);
    periods.set(period, sum);
  }
  return [...periods].sort(([a], [b]) => a.localeCompare(b)).map(([period, sum]) => ({ period, ...figures(sum) }));
}

async function distribution(db: Db, filter: StatsFilter): Promise<ScoreBucket[]> {
  const rows = (await selected(db, filter)
    .select(db.raw(`${bucketExpression()} as bucket`))
    .count({ count: '*' })
    .groupByRaw(bucketExpression())) as { bucket: unknown; count: unknown }[];
  const counts = new Map(rows.map((row) => [toNumber(row.bucket), toNumber(row.count)]));
  const width = 100 / BUCKETS;
  return Array.from({ length: BUCKETS }, (_, b) => ({ from: b * width, to: (b + 1) * width, count: counts.get(b) ?? 0 }));
}

export async function examStats(db: Db, filter: StatsFilter): Promise<ExamStats> {
  const sums = [...SUMS, ...PEOPLE].map((s) => db.raw(s));
  const [overall, byPaper, byDepartment, scores, points] = await Promise.all([
    selected(db, filter).select(sums).first() as Promise<(Sums & People) | undefined>,
    selected(db, filter)
      .join('exam_papers as p', 'p.id', 'r.paper_id')
      .select('r.paper_id', 'p.name as paper_name', ...sums)
      .groupBy('r.paper_id', 'p.name')
      .orderBy([{ column: 'records', order: 'desc' }, { column: 'r.paper_id', order: 'desc' }])
      .limit(MAX_GROUPS) as Promise<(Sums & People & { paper_id: unknown; paper_name: string })[]>,
    selected(db, filter)
      .select(db.raw(`${DEPARTMENT} as department`), ...sums)
      .groupByRaw(DEPARTMENT)
      .orderBy([{ column: 'records', order: 'desc' }, { column: 'department' }])
      .limit(MAX_GROUPS) as Promise<(Sums & People & { department: string | null })[]>,
    distribution(db, filter),
    trend(db, filter),
  ]);
  return {
    overall: { ...figures(overall), ...peopleFigures(overall) },
    by_paper: byPaper.map((row): PaperFigures => ({ paper_id: toNumber(row.paper_id), paper_name: row.paper_name, ...figures(row), ...peopleFigures(row) })),
    by_department: byDepartment.map((row): DepartmentFigures => ({ department: row.department ?? '', ...figures(row), ...peopleFigures(row) })),
    score_distribution: scores,
    trend: points,
  };
}

/**
 * The active employees who have no formal record of the paper yet (optionally of one department, or whose name
 * contains `q`), by department and name.
 */
export async function notTaken(db: Db, filter: { paper_id: number; department?: string; q?: string; page: number; size: number }): Promise<Page<NotTaken>> {
  const base = db('users as u')
    .where({ 'u.role': 'employee', 'u.status': 'active' })
    .whereNotExists(db('exam_records as r').where('r.paper_id', filter.paper_id).whereRaw('r.user_id = u.id'));
  if (filter.department !== undefined) base.where('u.department', filter.department);
  if (filter.q) whereContains(base, ['u.full_name', 'u.username'], filter.q);
  return paginate(
    base,
    filter,
    (q) => q.select('u.id', 'u.username', 'u.full_name', 'u.department').orderBy([{ column: 'u.department' }, { column: 'u.full_name' }, { column: 'u.id' }]),
    (row: { id: number; username: string; full_name: string; department: string | null }) => ({ user_id: Number(row.id), username: row.username, full_name: row.full_name, department: row.department ?? '' }),
  );
}
