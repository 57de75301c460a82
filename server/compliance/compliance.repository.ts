import type { Knex } from 'knex';
import type { Db } from '../db/knex.js';
import { paginate, type Paging } from '../db/paginate.js';
import { parseJson, toBool, toNullableNumber, toNumber } from '../db/rows.js';
import type { Page } from '../../contract/envelope.js';
import type {
  ComplianceRate,
  ComplianceRule,
  Inspection,
  InspectionBody,
  InspectionSummary,
  RuleSet,
  RuleSetScope,
  RuleSetSummary,
} from '../../contract/compliance.js';
import type { InspectionFilterInput, StatsInput } from './compliance.schema.js';

// Rule sets --------------------------------------------------------------------------------------------------------

interface RuleSetRow {
  id: number | string;
  name: string;
  scope: RuleSetScope;
  scope_value: string | null;
  version: number | string;
  is_default: boolean | number;
  status: 'active' | 'inactive';
  rules: string;
  created_at: string;
  updated_at: string;
}

const toRuleSet = (r: RuleSetRow): RuleSet => ({
  id: Number(r.id),
  name: r.name,
  scope: r.scope,
  scope_value: r.scope_value,
  version: toNumber(r.version),
  is_default: toBool(r.is_default),
  status: r.status,
  rules: parseJson<ComplianceRule[]>(r.rules, []),
  created_at: r.created_at,
  updated_at: r.updated_at,
});

export const toRuleSetSummary = ({ rules, ...set }: RuleSet): RuleSetSummary => ({ ...set, rule_count: rules.length });

export async function listRuleSets(db: Db, status: 'active' | 'inactive' | 'all'): Promise<RuleSet[]> {
  const query = db<RuleSetRow>('compliance_rule_sets').orderBy('id');
  if (status !== 'all') query.where({ status });
  return ((await query) as RuleSetRow[]).map(toRuleSet);
}

export async function findRuleSet(db: Db, id: number): Promise<RuleSet | undefined> {
  const row = (await db('compliance_rule_sets').where({ id }).first()) as RuleSetRow | undefined;
  return row && toRuleSet(row);
}

/** The rules of a version of a rule set, as they were. */
export async function findRuleSetVersion(db: Db, id: number, version: number): Promise<ComplianceRule[] | undefined> {
  const row = (await db('compliance_rule_set_versions').where({ rule_set_id: id, version }).first('rules')) as { rules: string } | undefined;
  return row && parseJson<ComplianceRule[]>(row.rules, []);
}

export interface RuleSetValues {
  name: string;
  scope: RuleSetScope;
  scope_value: string | null;
  status: 'active' | 'inactive';
  rules: ComplianceRule[];
}

export async function insertRuleSet(db: Db, values: RuleSetValues, at: string): Promise<number> {
  return db.transaction(async (trx) => {
    const [row] = await trx('compliance_rule_sets')
      .insert({ ...values, rules: JSON.stringify(values.rules), version: 1, is_default: false, created_at: at, updated_at: at })
      .returning('id');
    const id = Number((row as { id: number }).id);
    await trx('compliance_rule_set_versions').insert({ rule_set_id: id, version: 1, rules: JSON.stringify(values.rules), created_at: at });
    return id;
  });
}

/** Writes the next version (the version row and the current copy in one transaction). */
export async function updateRuleSet(db: Db, current: RuleSet, values: RuleSetValues, at: string): Promise<void> {
  await db.transaction(async (trx) => {
    const version = current.version + 1;
    const changed = await trx('compliance_rule_sets')
      .where({ id: current.id, version: current.version })
      .update({ ...values, rules: JSON.stringify(values.rules), version, updated_at: at });
    // Two admins saving at once: the second save builds on the first one's version.
    if (!Number(changed)) throw new Error('rule set changed meanwhile');
    await trx('compliance_rule_set_versions').insert({ rule_set_id: current.id, version, rules: JSON.stringify(values.rules), created_at: at });
  });
}

// Inspections ------------------------------------------------------------------------------------------------------

export type StoredResult = InspectionBody['results'][number];

export interface NewInspection {
  gid?: string;
  /** What makes two requests the same inspection (inspections.service.ts); unique where set. */
  dedupe_key?: string | null;
  origin_device?: string | null;
  user_id: number;
  transcription_id: number;
  revision: number;
  rule_set_id: number;
  rule_set_version: number;
  product_id: number | null;
  department: string;
  filename: string;
  rep_speaker: string;
  score: number;
  outcome: 'pass' | 'fail';
  critical_failures: number;
  customer_risk: string | null;
  trigger: 'auto' | 'manual';
  body: InspectionBody;
  created_at: string;
}

interface InspectionRow {
  id: number | string;
  gid: string;
  user_id: number | string;
  username: string;
  full_name: string | null;
  transcription_id: number | string;
  revision: number | string;
  rule_set_id: number | string;
  rule_set_version: number | string;
  product_id: number | string | null;
  department: string;
  filename: string;
  rep_speaker: string;
  score: number | string;
  outcome: 'pass' | 'fail';
  critical_failures: number | string;
  customer_risk: string | null;
  trigger: 'auto' | 'manual';
  body: string;
  origin_device: string | null;
  created_at: string;
}

export interface StoredInspection {
  gid: string;
  /** Inspected here (its transcription and audio are here), not synced up from a branch. */
  local: boolean;
  inspection: Omit<Inspection, 'results'> & { results: StoredResult[] };
}

function toStored(r: InspectionRow): StoredInspection {
  const body = parseJson<InspectionBody>(r.body, { product: null, results: [], second_opinion: { status: 'off', findings: [] } });
  return {
    gid: r.gid,
    local: !r.origin_device,
    inspection: {
      id: Number(r.id),
      transcription_id: Number(r.transcription_id),
      revision: toNumber(r.revision),
      rule_set_id: Number(r.rule_set_id),
      rule_set_version: toNumber(r.rule_set_version),
      score: toNumber(r.score),
      outcome: r.outcome,
      critical_failures: toNumber(r.critical_failures),
      user: { id: Number(r.user_id), username: r.username, full_name: r.full_name ?? '', department: r.department },
      filename: r.filename,
      rep_speaker: r.rep_speaker,
      product: body.product,
      customer_risk: r.customer_risk,
      trigger: r.trigger,
      results: body.results,
      second_opinion: body.second_opinion,
      created_at: r.created_at,
    },
  };
}

export function toSummary({ inspection }: StoredInspection): InspectionSummary {
  const { results, second_opinion: _opinion, ...rest } = inspection;
  return { ...rest, failed_rules: results.filter((r) => r.outcome === 'fail').map((r) => r.rule_key) };
}

const inspectionQuery = (db: Db) => db('compliance_inspections as i').join('users as u', 'u.id', 'i.user_id');
const COLUMNS = ['i.*', 'u.username', 'u.full_name'];

export async function insertInspection(trx: Db, inspection: NewInspection): Promise<number> {
  const [row] = await trx('compliance_inspections')
    .insert({ ...inspection, body: JSON.stringify(inspection.body) })
    .returning('id');
  const id = Number((row as { id: number }).id);
  if (inspection.body.results.length) {
    await trx('compliance_results').insert(inspection.body.results.map((r) => ({ inspection_id: id, rule_key: r.rule_key, outcome: r.outcome, severity: r.severity })));
  }
  return id;
}

export async function findInspection(db: Db, id: number): Promise<StoredInspection | undefined> {
  const row = (await inspectionQuery(db).where('i.id', id).first(COLUMNS)) as InspectionRow | undefined;
  return row && toStored(row);
}

export const inspectionIdByDedupeKey = async (db: Db, key: string): Promise<number | undefined> =>
  toNullableNumber(((await db('compliance_inspections').where({ dedupe_key: key }).first('id')) as { id: number } | undefined)?.id) ?? undefined;

export const inspectionIdByGid = async (db: Db, gid: string): Promise<number | undefined> =>
  toNullableNumber(((await db('compliance_inspections').where({ gid }).first('id')) as { id: number } | undefined)?.id) ?? undefined;

const endOfDay = (to: string) => (/^\d{4}-\d{2}-\d{2}$/.test(to.trim()) ? `${to.trim()}T23:59:59.999Z` : new Date(to).toISOString());

/** The filters of lists, exports and stats, on `compliance_inspections as i`. */
function applyFilter(db: Db, query: Knex.QueryBuilder, ownerId: number | undefined, filter: Partial<InspectionFilterInput>): Knex.QueryBuilder {
  const userId = ownerId ?? filter.user_id;
  if (userId !== undefined) query.where('i.user_id', userId);
  if (filter.department) query.where('i.department', filter.department);
  if (filter.product_id !== undefined) query.where('i.product_id', filter.product_id);
  if (filter.transcription_id !== undefined) query.where('i.transcription_id', filter.transcription_id);
  if (filter.from) query.where('i.created_at', '>=', new Date(filter.from).toISOString());
  if (filter.to) query.where('i.created_at', '<=', endOfDay(filter.to));
  if (filter.rule_key) {
    // With a rule: the outcome is that rule's.
    query.whereExists(
      db('compliance_results as r')
        .whereRaw('?? = ??', ['r.inspection_id', 'i.id'])
        .andWhere('r.rule_key', filter.rule_key)
        .modify((q) => {
          if (filter.outcome) q.andWhere('r.outcome', filter.outcome);
        }),
    );
  } else if (filter.outcome === 'pass' || filter.outcome === 'fail') query.where('i.outcome', filter.outcome);
  else if (filter.outcome === 'not_applicable') query.whereRaw('1 = 0');
  return query;
}

/** Newest first; `ownerId` set: that user's only. */
export async function listInspections(db: Db, ownerId: number | undefined, filter: InspectionFilterInput & Paging): Promise<Page<InspectionSummary>> {
  const base = applyFilter(db, inspectionQuery(db), ownerId, filter);
  return paginate(base, filter, (q) => q.select(COLUMNS).orderBy('i.id', 'desc'), (row: InspectionRow) => toSummary(toStored(row)));
}

export async function inspectionRowsNewestFirst(db: Db, filter: InspectionFilterInput, paging: Paging): Promise<InspectionSummary[]> {
  const rows = (await applyFilter(db, inspectionQuery(db), undefined, filter)
    .select(COLUMNS)
    .orderBy('i.id', 'desc')
    .limit(paging.size)
    .offset((paging.page - 1) * paging.size)) as InspectionRow[];
  return rows.map((r) => toSummary(toStored(r)));
}

/** The newest coaching report of a transcription: who the rep is and which product it was about. */
export async function coachingOfTranscription(db: Db, transcriptionId: number): Promise<{ rep_speaker: string; product_id: number | null } | undefined> {
  const row = (await db('coaching_reports').where({ transcription_id: transcriptionId }).orderBy('id', 'desc').first('rep_speaker', 'product_id')) as
    | { rep_speaker: string; product_id: number | string | null }
    | undefined;
  return row && { rep_speaker: row.rep_speaker, product_id: toNullableNumber(row.product_id) };
}

// Stats --------------------------------------------------------------------------------------------------------------

interface RateRow {
  key: string | number | null;
  label?: string | null;
  inspections: number | string;
  passed: number | string;
}

const toRate = (r: RateRow): ComplianceRate & { label: string } => {
  const inspections = toNumber(r.inspections);
  const passed = toNumber(r.passed);
  return { key: r.key === null ? '' : String(r.key), label: r.label ?? (r.key === null ? '' : String(r.key)), inspections, passed, pass_rate: inspections ? passed / inspections : 0 };
};

const PASSED = (column: string) => `SUM(CASE WHEN ${column} = 'pass' THEN 1 ELSE 0 END)`;

export async function complianceStats(db: Db, filter: StatsInput) {
  const filtered = () => applyFilter(db, db('compliance_inspections as i'), undefined, filter);
  const [totals, byRule, byDepartment, byProduct, byMonth] = await Promise.all([
    filtered().select(db.raw('COUNT(*) as inspections'), db.raw(`${PASSED('i.outcome')} as passed`)).first() as Promise<RateRow>,
    filtered()
      .join('compliance_results as r', 'r.inspection_id', 'i.id')
      .whereNot('r.outcome', 'not_applicable')
      .groupBy('r.rule_key')
      .orderBy('r.rule_key')
      .select('r.rule_key as key', db.raw('COUNT(*) as inspections'), db.raw(`${PASSED('r.outcome')} as passed`)) as Promise<RateRow[]>,
    filtered().groupBy('i.department').orderBy('i.department').select('i.department as key', db.raw('COUNT(*) as inspections'), db.raw(`${PASSED('i.outcome')} as passed`)) as Promise<RateRow[]>,
    filtered()
      .leftJoin('products as p', 'p.id', 'i.product_id')
      .groupBy('i.product_id', 'p.name')
      .orderBy('i.product_id')
      .select('i.product_id as key', 'p.name as label', db.raw('COUNT(*) as inspections'), db.raw(`${PASSED('i.outcome')} as passed`)) as Promise<RateRow[]>,
    filtered()
      .groupByRaw('substr(i.created_at, 1, 7)')
      .orderByRaw('substr(i.created_at, 1, 7)')
      .select(db.raw('substr(i.created_at, 1, 7) as key'), db.raw('COUNT(*) as inspections'), db.raw(`${PASSED('i.outcome')} as passed`)) as Promise<RateRow[]>,
  ]);
  const total = toRate({ key: 'all', inspections: totals?.inspections ?? 0, passed: totals?.passed ?? 0 });
  return {
    total: total.inspections,
    passed: total.passed,
    pass_rate: total.pass_rate,
    by_rule: byRule.map(toRate),
    by_department: byDepartment.map(toRate),
    by_product: byProduct.map(toRate),
    by_month: byMonth.map(toRate),
  };
}
