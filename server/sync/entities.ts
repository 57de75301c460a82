// The down entities (central wins): which columns travel, which references travel as gids, how a branch matches
// a row it already has. One table drives both the central server's pull pages and the branch's apply.
import type { Db } from '../db/knex.js';
import { toBool } from '../db/rows.js';
import { REVIEW_CARD_ENTITY } from '../review/review.down.js';

/** A reference column sent as the referenced row's gid. */
interface Ref {
  column: string;
  wire: string;
  table: string;
}

export interface EntityDef {
  entity: string;
  table: string;
  /** Columns copied as they are. */
  fields: readonly string[];
  booleans?: readonly string[];
  refs?: readonly Ref[];
  /** A column that identifies a row without its gid: a branch row with the same value takes the central gid. */
  naturalKey?: string;
  /** Rows the central server does not send (they go down as deletes). */
  hidden?: (row: Record<string, unknown>) => boolean;
  /** What the delete of a hidden row says about it (e.g. a rejected media's reason); null: nothing. */
  hiddenState?: (row: Record<string, unknown>) => Record<string, unknown> | null;
  /** What a delete does at the branch: remove the row, or disable it (rows others point at with cascading keys). */
  onDelete: 'delete' | { set: Record<string, unknown> };
  /** Central: what travels besides fields and refs (related rows, chunks), added to the wire form by row id. */
  addWire?: (db: Db, rows: Row[], wire: Map<number, Row>) => Promise<void>;
}

type Row = Record<string, unknown>;

/**
 * A rejected media's verdict (status, reason, when), or undefined: what central sends with the delete of a media it
 * rejected, and what a branch writes into its own copy when it suggested that media (branch/apply.ts).
 */
export const mediaRejection = (row: Row): Row | undefined =>
  row.status === 'rejected' ? { status: 'rejected', reject_reason: row.reject_reason ?? null, reviewed_at: row.reviewed_at ?? null } : undefined;

const STAMPS = ['created_at', 'updated_at'] as const;

export const ENTITIES: readonly EntityDef[] = [
  { entity: 'department', table: 'departments', fields: ['name', 'description', ...STAMPS], naturalKey: 'name', onDelete: 'delete' },
  { entity: 'position', table: 'positions', fields: ['name', 'description', ...STAMPS], naturalKey: 'name', onDelete: 'delete' },
  {
    entity: 'user',
    table: 'users',
    fields: ['username', 'password_hash', 'full_name', 'role', 'status', 'department', 'locale', ...STAMPS],
    refs: [
      { column: 'department_id', wire: 'department_gid', table: 'departments' },
      { column: 'position_id', wire: 'position_gid', table: 'positions' },
    ],
    naturalKey: 'username',
    onDelete: { set: { status: 'disabled' } },
  },
  {
    entity: 'product',
    table: 'products',
    fields: ['code', 'name', 'category', 'status', 'summary', 'description', 'risk_level', 'cooling_off_days', 'commission_rate', 'attributes', ...STAMPS],
    naturalKey: 'code',
    onDelete: { set: { status: 'inactive' } },
  },
  {
    entity: 'roleplay_scenario',
    table: 'roleplay_scenarios',
    fields: ['title', 'persona', 'opening', 'objections', 'closing', 'criteria', 'pass_score', 'max_turns', 'status', ...STAMPS],
    refs: [{ column: 'product_id', wire: 'product_gid', table: 'products' }],
    onDelete: { set: { status: 'inactive' } },
  },
  {
    entity: 'course',
    table: 'courses',
    fields: ['title', 'category', 'status', 'summary', 'content', 'duration_minutes', ...STAMPS],
    onDelete: { set: { status: 'inactive' } },
    addWire: addCourseProducts,
  },
  {
    entity: 'question',
    table: 'questions',
    fields: ['domain', 'type', 'stem', 'options', 'answer', 'explanation', 'status', 'version', ...STAMPS],
    refs: [{ column: 'course_id', wire: 'course_gid', table: 'courses' }],
    onDelete: { set: { status: 'disabled' } },
  },
  {
    entity: 'paper',
    table: 'exam_papers',
    fields: ['name', 'type', 'domain', 'question_count', 'total_score', 'pass_score', 'duration_minutes', 'randomize', 'description', 'max_attempts', 'show_answers', 'opens_at', 'closes_at', 'shuffle_options', 'status', 'published_at', 'version', 'has_audience', ...STAMPS],
    booleans: ['randomize', 'shuffle_options', 'has_audience'],
    onDelete: { set: { status: 'inactive' } },
    addWire: addPaperAudience,
  },
  {
    entity: 'media',
    table: 'media_files',
    fields: ['filename', 'file_ext', 'mime_type', 'size', 'sha256', 'bind_type', 'remark', 'reviewed_at', ...STAMPS],
    hidden: (row) => row.status !== 'approved',
    hiddenState: (row) => mediaRejection(row) ?? null,
    onDelete: 'delete',
    addWire: async (db, rows, wire) => {
      await addMediaBindings(db, rows, wire);
      await addChunks(db, 'media', rows.filter((r) => r.extraction_state === 'done'), wire);
    },
  },
  {
    entity: 'knowledge',
    table: 'knowledge_sources',
    fields: ['file_path', 'title', 'domain', 'content_sha256', 'products_count', 'chunks_count', 'questions_count', 'scanned_at', 'reviewed_at', ...STAMPS],
    hidden: (row) => row.status !== 'approved',
    onDelete: 'delete',
    addWire: (db, rows, wire) => addChunks(db, 'knowledge', rows, wire),
  },
  {
    entity: 'ai_route',
    table: 'ai_routes',
    // The key travels (a route is of no use without it) over the device's HTTPS link; branches store it as their own.
    fields: ['name', 'kind', 'provider', 'base_url', 'api_key', 'model', 'priority', 'enabled', 'is_local', 'connect_timeout_ms', 'idle_timeout_ms', ...STAMPS],
    booleans: ['enabled', 'is_local'],
    hidden: (row) => !toBool(row.for_branches),
    onDelete: 'delete',
  },
  {
    entity: 'notification',
    table: 'notifications',
    fields: ['type', 'title', 'content', 'read', 'created_at'],
    booleans: ['read'],
    refs: [{ column: 'user_id', wire: 'user_gid', table: 'users' }],
    onDelete: 'delete',
    addWire: addNotificationLinks,
  },
  REVIEW_CARD_ENTITY,
  {
    // The rule travels (departments, positions, people as gids), so each branch computes its assignees itself.
    entity: 'assignment',
    table: 'assignments',
    fields: ['title', 'item_type', 'starts_at', 'due_at', ...STAMPS],
    refs: [
      { column: 'paper_id', wire: 'paper_gid', table: 'exam_papers' },
      { column: 'course_id', wire: 'course_gid', table: 'courses' },
      { column: 'scenario_id', wire: 'scenario_gid', table: 'roleplay_scenarios' },
      { column: 'created_by', wire: 'created_by_gid', table: 'users' },
    ],
    onDelete: 'delete',
    addWire: addAssignmentTargets,
  },
  {
    // Central-owned (docs/api/compliance.md, "Branches"): every version travels, so a branch inspection names the
    // central (rule set, version) and its rules; a product scope names the product by gid.
    entity: 'compliance_rule_set',
    table: 'compliance_rule_sets',
    fields: ['name', 'scope', 'scope_value', 'version', 'is_default', 'status', 'rules', ...STAMPS],
    booleans: ['is_default'],
    onDelete: { set: { status: 'inactive' } },
    addWire: addRuleSetVersions,
  },
];

async function addRuleSetVersions(db: Db, rows: Row[], wire: Map<number, Row>): Promise<void> {
  const versions = (await db('compliance_rule_set_versions')
    .whereIn('rule_set_id', rows.map((r) => Number(r.id)))
    .orderBy(['rule_set_id', 'version'])
    .select('rule_set_id', 'version', 'rules', 'created_at')) as { rule_set_id: number; version: number; rules: string; created_at: string }[];
  for (const data of wire.values()) data.versions = [];
  for (const v of versions) (wire.get(Number(v.rule_set_id))!.versions as unknown[]).push({ version: Number(v.version), rules: v.rules, created_at: v.created_at });
  const products = await gidMap(db, 'products', 'id', rows.filter((r) => r.scope === 'product').map((r) => r.scope_value));
  for (const row of rows) wire.get(Number(row.id))!.scope_product_gid = row.scope === 'product' ? (products.get(String(row.scope_value)) ?? null) : null;
}

/** A paper audience's kinds, as an assignment's: the table each id points at and the wire name of its gids. */
export const PAPER_AUDIENCE = [
  ['department', 'departments', 'audience_department_gids'],
  ['user', 'users', 'audience_user_gids'],
] as const;

/** An assignment's target kinds and the tables their ids point at, with the wire name of each kind's gids. */
export const ASSIGNMENT_TARGETS = [
  ['department', 'departments', 'department_gids'],
  ['position', 'positions', 'position_gids'],
  ['user', 'users', 'user_gids'],
] as const;

/** Target rows (`kind`, `target_id` under a parent column) as lists of gids on each parent's wire form, per kind. */
export type TargetKinds = readonly (readonly [kind: string, table: string, field: string])[];
async function addTargetGids(table: string, parent: string, kinds: TargetKinds, db: Db, rows: Row[], wire: Map<number, Row>): Promise<void> {
  const targets = (await db(table)
    .whereIn(parent, rows.map((r) => Number(r.id)))
    .orderBy([parent, 'kind', 'target_id'])
    .select(parent, 'kind', 'target_id')) as Record<string, number | string>[];
  for (const data of wire.values()) for (const [, , field] of kinds) data[field] = [];
  for (const [kind, refTable, field] of kinds) {
    const ofKind = targets.filter((t) => t.kind === kind);
    const gids = await gidMap(db, refTable, 'id', ofKind.map((t) => t.target_id));
    for (const t of ofKind) {
      const gid = gids.get(String(t.target_id));
      if (gid) (wire.get(Number(t[parent]))![field] as unknown[]).push(gid);
    }
  }
}
function addAssignmentTargets(db: Db, rows: Row[], wire: Map<number, Row>): Promise<void> {
  return addTargetGids('assignment_targets', 'assignment_id', ASSIGNMENT_TARGETS, db, rows, wire);
}
function addPaperAudience(db: Db, rows: Row[], wire: Map<number, Row>): Promise<void> {
  return addTargetGids('exam_paper_audience', 'paper_id', PAPER_AUDIENCE, db, rows, wire);
}

export const entityDef = (entity: string): EntityDef | undefined => ENTITIES.find((e) => e.entity === entity);

/** id → gid (or gid → id) of some rows of a table. */
export async function gidMap(db: Db, table: string, by: 'id' | 'gid', keys: unknown[]): Promise<Map<string, unknown>> {
  const wanted = [...new Set(keys.filter((k) => k !== null && k !== undefined))];
  const map = new Map<string, unknown>();
  for (let i = 0; i < wanted.length; i += 500) {
    const rows = (await db(table).whereIn(by, wanted.slice(i, i + 500)).select('id', 'gid')) as { id: number; gid: string }[];
    for (const row of rows) map.set(String(by === 'id' ? row.id : row.gid), by === 'id' ? row.gid : Number(row.id));
  }
  return map;
}

/** Which table a media binding points at (company or none: no row). */
export const bindTable = (bindType: unknown): string | undefined => (bindType === 'product' ? 'products' : bindType === 'course' ? 'courses' : undefined);

/** Rows of one entity as they travel: fields, booleans as booleans, references as gids, extras (course products, media binding). */
export async function toWire(db: Db, def: EntityDef, rows: Record<string, unknown>[]): Promise<Map<number, Record<string, unknown>>> {
  const refMaps = await Promise.all((def.refs ?? []).map((ref) => gidMap(db, ref.table, 'id', rows.map((r) => r[ref.column]))));
  const wire = new Map<number, Record<string, unknown>>();
  for (const row of rows) {
    const data: Record<string, unknown> = { gid: row.gid };
    for (const field of def.fields) data[field] = def.booleans?.includes(field) ? toBool(row[field]) : row[field];
    (def.refs ?? []).forEach((ref, i) => (data[ref.wire] = row[ref.column] === null ? null : (refMaps[i]!.get(String(row[ref.column])) ?? null)));
    wire.set(Number(row.id), data);
  }
  await def.addWire?.(db, rows, wire);
  return wire;
}

/** The chunks of the rows' text in order (`chunks`; null when the row has none extracted). */
async function addChunks(db: Db, sourceType: 'media' | 'knowledge', rows: Row[], wire: Map<number, Row>): Promise<void> {
  const ids = rows.map((r) => Number(r.id));
  for (const id of ids) wire.get(id)!.chunks = [];
  for (let i = 0; i < ids.length; i += 500) {
    const chunks = (await db('knowledge_chunks')
      .where({ source_type: sourceType })
      .whereIn('source_id', ids.slice(i, i + 500))
      .orderBy(['source_id', 'ordinal'])
      .select('source_id', 'content')) as { source_id: number; content: string }[];
    for (const chunk of chunks) (wire.get(Number(chunk.source_id))!.chunks as string[]).push(chunk.content);
  }
  for (const data of wire.values()) data.chunks ??= null;
}

/** A link to a paper travels as `/exams/{paper}` with the paper's gid; any other link naming a row id is dropped. */
export const PAPER_LINK = /^\/exams\/(\d+)$/;
export const PAPER_PLACEHOLDER = '{paper}';

async function addNotificationLinks(db: Db, rows: Row[], wire: Map<number, Row>): Promise<void> {
  const papers = await gidMap(db, 'exam_papers', 'id', rows.map((r) => PAPER_LINK.exec(String(r.link))?.[1]));
  for (const row of rows) {
    const link = String(row.link);
    const paper = PAPER_LINK.exec(link)?.[1];
    const data = wire.get(Number(row.id))!;
    data.link = paper ? `/exams/${PAPER_PLACEHOLDER}` : /\d/.test(link) ? '' : link;
    data.link_paper_gid = paper ? (papers.get(paper) ?? null) : null;
  }
}

async function addCourseProducts(db: Db, rows: Record<string, unknown>[], wire: Map<number, Record<string, unknown>>): Promise<void> {
  const links = (await db('course_products as cp')
    .join('products as p', 'p.id', 'cp.product_id')
    .whereIn('cp.course_id', rows.map((r) => Number(r.id)))
    .orderBy(['cp.course_id', 'cp.sort_order'])
    .select('cp.course_id', 'p.gid')) as { course_id: number; gid: string }[];
  for (const data of wire.values()) data.product_gids = [];
  for (const link of links) (wire.get(Number(link.course_id))!.product_gids as string[]).push(link.gid);
}

async function addMediaBindings(db: Db, rows: Record<string, unknown>[], wire: Map<number, Record<string, unknown>>): Promise<void> {
  for (const table of ['products', 'courses']) {
    const bound = rows.filter((r) => bindTable(r.bind_type) === table);
    const gids = await gidMap(db, table, 'id', bound.map((r) => r.bind_id));
    for (const row of bound) wire.get(Number(row.id))!.bind_gid = gids.get(String(row.bind_id)) ?? null;
  }
  for (const data of wire.values()) data.bind_gid ??= null;
}
