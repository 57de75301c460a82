// Rows of roleplay_scenarios and roleplay_sessions as contract types. A session is stored whole (its turns and
// report as JSON) and written one turn at a time.
import type { Knex } from 'knex';
import type { Db } from '../db/knex.js';
import type { Page } from '../../contract/envelope.js';
import type { Criterion, Persona, Scenario, Session, SessionReport, SessionSummary, Turn } from '../../contract/roleplay.js';
import { countOf, parseJson, toBool } from '../db/rows.js';
import { newGid } from '../db/gid.js';
import type { SessionListFilter } from './roleplay.schema.js';

interface ScenarioRow {
  id: number;
  gid: string;
  title: string;
  product_id: number | null;
  persona: string;
  opening: string;
  objections: string;
  closing: string;
  criteria: string;
  pass_score: number;
  max_turns: number;
  status: Scenario['status'];
  created_at: string;
  updated_at: string;
}

const toScenario = (r: ScenarioRow): Scenario => ({
  id: Number(r.id),
  title: r.title,
  product_id: r.product_id === null ? null : Number(r.product_id),
  persona: parseJson<Persona>(r.persona, { name: '', profile: '', risk_tolerance: 'C3' }),
  opening: r.opening,
  objections: parseJson<string[]>(r.objections, []),
  closing: r.closing,
  criteria: parseJson<Criterion[]>(r.criteria, []),
  pass_score: Number(r.pass_score),
  max_turns: Number(r.max_turns),
  status: r.status,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

export type ScenarioValues = Omit<Scenario, 'id' | 'created_at' | 'updated_at'>;

const scenarioColumns = (v: Partial<ScenarioValues>) => ({
  ...(v.title !== undefined && { title: v.title }),
  ...(v.product_id !== undefined && { product_id: v.product_id }),
  ...(v.persona !== undefined && { persona: JSON.stringify(v.persona) }),
  ...(v.opening !== undefined && { opening: v.opening }),
  ...(v.objections !== undefined && { objections: JSON.stringify(v.objections) }),
  ...(v.closing !== undefined && { closing: v.closing }),
  ...(v.criteria !== undefined && { criteria: JSON.stringify(v.criteria) }),
  ...(v.pass_score !== undefined && { pass_score: v.pass_score }),
  ...(v.max_turns !== undefined && { max_turns: v.max_turns }),
  ...(v.status !== undefined && { status: v.status }),
});

export async function insertScenario(db: Db, values: ScenarioValues, createdBy: number, at: string): Promise<number> {
  const [row] = await db('roleplay_scenarios')
    .insert({ ...scenarioColumns(values), gid: newGid(), created_by: createdBy, created_at: at, updated_at: at })
    .returning('id');
  return Number((row as { id: number }).id);
}

export async function updateScenario(db: Db, id: number, values: Partial<ScenarioValues>, at: string): Promise<void> {
  await db('roleplay_scenarios').where({ id }).update({ ...scenarioColumns(values), updated_at: at });
}

export async function findScenario(db: Db, id: number): Promise<Scenario | undefined> {
  const row = (await db('roleplay_scenarios').where({ id }).first()) as ScenarioRow | undefined;
  return row && toScenario(row);
}

export async function listScenarios(db: Db, status: Scenario['status'] | undefined): Promise<Scenario[]> {
  const q = db('roleplay_scenarios').orderBy('id');
  if (status) q.where({ status });
  return ((await q) as ScenarioRow[]).map(toScenario);
}

interface SessionRow {
  id: number;
  user_id: number;
  scenario_id: number;
  scenario_title: string;
  username: string;
  full_name: string | null;
  status: Session['status'];
  mode: Session['mode'];
  turns: string;
  score: number | null;
  passed: unknown;
  report: string | null;
  created_at: string;
  finished_at: string | null;
}

export type StoredReport = Pick<SessionReport, 'criteria' | 'compliance' | 'practice_item_ids'>;

const sessionQuery = (db: Db) =>
  db('roleplay_sessions as s')
    .join('roleplay_scenarios as sc', 'sc.id', 's.scenario_id')
    .join('users as u', 'u.id', 's.user_id')
    .select('s.id', 's.user_id', 's.scenario_id', 'sc.title as scenario_title', 'u.username', 'u.full_name', 's.status', 's.mode', 's.score', 's.passed', 's.created_at', 's.finished_at');

const summaryOf = (r: SessionRow, turnCount: number): SessionSummary => ({
  id: Number(r.id),
  scenario_id: Number(r.scenario_id),
  scenario_title: r.scenario_title,
  user: { id: Number(r.user_id), username: r.username, full_name: r.full_name },
  status: r.status,
  mode: r.mode,
  score: r.score === null ? null : Number(r.score),
  passed: r.passed === null ? null : toBool(r.passed),
  created_at: r.created_at,
  finished_at: r.finished_at,
  turn_count: turnCount,
});

export async function findSession(db: Db, id: number): Promise<Session | undefined> {
  const row = (await sessionQuery(db).select('s.turns', 's.report').where('s.id', id).first()) as SessionRow | undefined;
  if (!row) return undefined;
  const turns = parseJson<Turn[]>(row.turns, []);
  const { turn_count: _count, ...summary } = summaryOf(row, turns.length);
  const report = row.report === null ? null : parseJson<StoredReport | null>(row.report, null);
  return { ...summary, turns, criteria: report?.criteria ?? null, compliance: report?.compliance ?? null, practice_item_ids: report?.practice_item_ids ?? [] };
}

export async function insertSession(db: Db, values: { user_id: number; scenario_id: number; mode: Session['mode']; turns: Turn[] }, at: string): Promise<number> {
  const [row] = await db('roleplay_sessions')
    .insert({ ...values, gid: newGid(), turns: JSON.stringify(values.turns), status: 'active', created_at: at, updated_at: at })
    .returning('id');
  return Number((row as { id: number }).id);
}

/** Writes the turns while the session is active; false once it has been finished. */
export async function saveTurns(db: Db, id: number, turns: Turn[], at: string): Promise<boolean> {
  const updated = await db('roleplay_sessions').where({ id, status: 'active' }).update({ turns: JSON.stringify(turns), updated_at: at });
  return updated > 0;
}

/** Marks the session finished (once: false when it already was), with its score and report. */
export async function finishSession(db: Db, id: number, values: { score: number; passed: boolean; report: StoredReport }, at: string): Promise<boolean> {
  const updated = await db('roleplay_sessions')
    .where({ id, status: 'active' })
    .update({ status: 'finished', score: values.score, passed: values.passed, report: JSON.stringify(values.report), finished_at: at, updated_at: at });
  return updated > 0;
}

export async function setPracticeItems(db: Db, id: number, report: StoredReport): Promise<void> {
  await db('roleplay_sessions').where({ id }).update({ report: JSON.stringify(report) });
}

export async function listSessions(db: Db, filter: SessionListFilter & { user_id?: number }): Promise<Page<SessionSummary>> {
  const where = <Q extends Knex.QueryBuilder>(q: Q): Q => {
    if (filter.user_id !== undefined) q.where('s.user_id', filter.user_id);
    if (filter.scenario_id !== undefined) q.where('s.scenario_id', filter.scenario_id);
    if (filter.status !== undefined) q.where('s.status', filter.status);
    return q;
  };
  const total = countOf(await where(db('roleplay_sessions as s')).count({ count: '*' }).first());
  const rows = (await where(sessionQuery(db).select('s.turns'))
    .orderBy('s.id', 'desc')
    .limit(filter.size)
    .offset((filter.page - 1) * filter.size)) as (SessionRow & { turns: string })[];
  return { items: rows.map((r) => summaryOf(r, parseJson<Turn[]>(r.turns, []).length)), total, page: filter.page, size: filter.size };
}

/** The finished sessions' reports of a scenario, for its criterion rates. */
export async function finishedReports(db: Db, scenarioId: number): Promise<{ passed: boolean; report: StoredReport | null }[]> {
  const rows = (await db('roleplay_sessions').where({ scenario_id: scenarioId, status: 'finished' }).select('passed', 'report')) as { passed: unknown; report: string | null }[];
  return rows.map((r) => ({ passed: toBool(r.passed), report: parseJson<StoredReport | null>(r.report, null) }));
}
