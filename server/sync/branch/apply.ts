// Branch: a pulled page applied in one transaction with its cursor (central wins; docs/sync.md, "Down").
import fs from 'node:fs/promises';
import type { Knex } from 'knex';
import type { Db } from '../../db/knex.js';
import type { PulledChange } from '../../../contract/sync.js';
import { now } from '../../db/time.js';
import { toBool } from '../../db/rows.js';
import { forgetCachedUsers } from '../../users/users.repository.js';
import { catalogChanged } from '../../db/catalog-cache.js';
import { configChanged } from '../../system/config.service.js';
import { routesChanged } from '../../ai/model-routes.repository.js';
import { replaceChunks } from '../../knowledge/chunks.js';
import { CENTRAL_KNOWLEDGE_PREFIX } from '../../knowledge/sources.repository.js';
import { newStorageKey } from '../../media/media.storage.js';
import { keys } from '../../storage/index.js';
import type { BranchFiles } from './files.js';
import { ASSIGNMENT_TARGETS, PAPER_AUDIENCE, bindTable, type TargetKinds, entityDef, gidMap, mediaRejection, PAPER_PLACEHOLDER, type EntityDef } from '../entities.js';
import { applyParameters, PARAMETERS_ENTITY } from '../parameters.js';
import { partFile } from './files.js';
import { REVIEW_CARD_HOOKS } from '../../review/review.sync.js';
import { forgetCompiledRuleSets } from '../../compliance/rule-sets.service.js';

type Row = Record<string, unknown>;


async function localId(db: Db, table: string, gid: unknown): Promise<number | null> {
  if (typeof gid !== 'string') return null;
  return ((await gidMap(db, table, 'gid', [gid])).get(gid) as number | undefined) ?? null;
}

/** The local row this central row is: by gid, else by natural key (which then takes the central gid). */
async function existingRow(db: Db, def: EntityDef, change: PulledChange): Promise<Row | undefined> {
  const byGid = (await db(def.table).where({ gid: change.gid }).first()) as Row | undefined;
  if (byGid || !def.naturalKey) return byGid;
  const key = change.data![def.naturalKey];
  return key === null || key === undefined ? undefined : ((await db(def.table).where({ [def.naturalKey]: key }).first()) as Row | undefined);
}

async function rowOf(db: Db, def: EntityDef, data: Row): Promise<Row> {
  const row: Row = {};
  for (const field of def.fields) row[field] = data[field] ?? null;
  for (const ref of def.refs ?? []) row[ref.column] = await localId(db, ref.table, data[ref.wire]);
  return row;
}

/** What an entity does at the branch besides copying its fields: local columns, related rows, what a delete removes. */
interface BranchHooks {
  /** Columns of the local row (undefined: the row is not kept, e.g. a notification of a user the branch lacks). */
  local?: (db: Db, row: Row, data: Row, existing: Row | undefined) => Promise<Row | undefined>;
  after?: (db: Db, id: number, data: Row) => Promise<void>;
  beforeDelete?: (db: Db, files: BranchFiles, id: number) => Promise<void>;
  /** A row a delete leaves alone. */
  keep?: (row: Row) => boolean;
  /** For a kept row: what the delete's state (hiddenState at central) changes in it. */
  keptChanges?: (gone: Row) => Row | undefined;
}

/** Media: metadata now, the row becomes approved once its file is downloaded and verified (files.ts). */
async function mediaRow(db: Db, row: Row, data: Row, existing: Row | undefined): Promise<Row> {
  const table = bindTable(data.bind_type);
  // The same bytes are here already: approved before, or suggested here and now approved centrally.
  const sameFile = existing?.sha256 === data.sha256 && (existing?.status === 'approved' || (existing?.uploaded_by ?? null) !== null);
  if (!sameFile) {
    await db('sync_files').where({ gid: data.gid }).delete();
    await db('sync_files').insert({ gid: data.gid, sha256: data.sha256, size: data.size, received: 0, updated_at: now() });
  }
  return {
    bind_id: table ? await localId(db, table, data.bind_gid) : null,
    status: sameFile ? 'approved' : 'downloading',
    ...(existing ? {} : { storage_key: newStorageKey(), extraction_state: 'not_started' }),
  };
}

/** The central text's chunks replace the row's own; null leaves them (nothing extracted centrally yet). */
const writeChunks = (sourceType: 'media' | 'knowledge', titleField: string) => async (db: Db, id: number, data: Row) => {
  if (!Array.isArray(data.chunks)) return;
  const count = await replaceChunks(db, { source_type: sourceType, source_id: id, title: String(data[titleField]) }, data.chunks as string[]);
  if (sourceType === 'media') await db('media_files').where({ id }).update({ extraction_state: 'done', extraction_stage: 'done', extraction_progress: 100, extraction_chunks: count, extraction_error: null });
};

const dropChunks = (sourceType: 'media' | 'knowledge') => (db: Db, _files: BranchFiles, id: number) =>
  replaceChunks(db, { source_type: sourceType, source_id: id, title: '' }, []).then(() => undefined);

async function removeMediaFile(db: Db, files: BranchFiles, id: number): Promise<void> {
  const row = (await db('media_files').where({ id }).first('storage_key', 'gid')) as { storage_key: string; gid: string };
  await dropChunks('media')(db, files, id);
  await db('sync_files').where({ gid: row.gid }).delete();
  await files.storage.delete(keys.media(row.storage_key));
  await fs.rm(partFile(files.dataDir, row.gid), { force: true });
}

async function notificationRow(db: Db, row: Row, data: Row, existing: Row | undefined): Promise<Row | undefined> {
  if (row.user_id === null) return undefined;
  const link = String(data.link ?? '');
  const paper = link.includes(PAPER_PLACEHOLDER) ? await localId(db, 'exam_papers', data.link_paper_gid) : undefined;
  return {
    // Read anywhere is read: a notification read on this laptop stays read when the central copy is not.
    read: toBool(existing?.read) || toBool(data.read),
    link: paper === undefined ? link : paper === null ? '' : link.replace(PAPER_PLACEHOLDER, String(paper)),
  };
}

async function courseProducts(db: Db, id: number, data: Row): Promise<void> {
  const gids = (data.product_gids as string[] | undefined) ?? [];
  const products = await gidMap(db, 'products', 'gid', gids);
  await db('course_products').where({ course_id: id }).delete();
  const ids = gids.map((g) => products.get(g)).filter((p): p is number => typeof p === 'number');
  if (ids.length) await db('course_products').insert(ids.map((product_id, sort_order) => ({ course_id: id, product_id, sort_order })));
}

/** Target rows from the wire's gids, in the branch's own ids (a department, position or person the branch lacks is left out). */
const replaceTargets =
  (table: string, parent: string, kinds: TargetKinds) =>
  async (db: Db, id: number, data: Row): Promise<void> => {
    await db(table).where({ [parent]: id }).delete();
    for (const [kind, refTable, field] of kinds) {
      const gids = (data[field] as string[] | undefined) ?? [];
      const ids = [...new Set([...(await gidMap(db, refTable, 'gid', gids)).values()])];
      if (ids.length) await db(table).insert(ids.map((target_id) => ({ [parent]: id, kind, target_id })));
    }
  };
const assignmentTargets = replaceTargets('assignment_targets', 'assignment_id', ASSIGNMENT_TARGETS);
const paperAudience = replaceTargets('exam_paper_audience', 'paper_id', PAPER_AUDIENCE);

/** A product-scoped rule set names the branch's own product id (a product the branch lacks: the set matches nothing). */
async function ruleSetRow(db: Db, _row: Row, data: Row): Promise<Row> {
  if (data.scope !== 'product') return {};
  return { scope_value: String((await localId(db, 'products', data.scope_product_gid)) ?? 0) };
}

/** Every central version, as it is centrally (central wins over a version the branch wrote itself). */
async function ruleSetVersions(db: Db, id: number, data: Row): Promise<void> {
  const versions = (data.versions as { version: number; rules: string; created_at: string }[] | undefined) ?? [];
  if (!versions.length) return;
  await db('compliance_rule_set_versions').where({ rule_set_id: id }).whereIn('version', versions.map((v) => v.version)).delete();
  await db('compliance_rule_set_versions').insert(versions.map((v) => ({ rule_set_id: id, version: v.version, rules: v.rules, created_at: v.created_at })));
}

const HOOKS: Record<string, BranchHooks> = {
  course: { after: courseProducts },
  // A media suggested here stays while it waits for the central audit (central sends a delete for anything not approved).
  media: {
    local: mediaRow,
    after: writeChunks('media', 'filename'),
    beforeDelete: removeMediaFile,
    keep: (row) => row.uploaded_by !== null && row.status === 'pending',
    // Rejected centrally: the suggestion is rejected here too, with the reviewer's reason, rather than pending for ever.
    keptChanges: mediaRejection,
  },
  knowledge: {
    local: async (_db, _row, data) => ({
      file_path: `${CENTRAL_KNOWLEDGE_PREFIX}${String(data.file_path)}`.slice(0, 1000),
      status: 'approved',
      reject_reason: null,
    }),
    after: writeChunks('knowledge', 'title'),
    beforeDelete: dropChunks('knowledge'),
  },
  notification: { local: notificationRow },
  review_card: REVIEW_CARD_HOOKS,
  assignment: { after: assignmentTargets },
  paper: { after: paperAudience },
  compliance_rule_set: { local: ruleSetRow, after: ruleSetVersions },
};

async function applyDelete(db: Db, files: BranchFiles, def: EntityDef, gid: string, gone: Row | null): Promise<void> {
  const hooks = HOOKS[def.entity];
  const existing = (await db(def.table).where({ gid }).first()) as Row | undefined;
  if (!existing) return;
  if (hooks?.keep?.(existing)) {
    const changes = gone && hooks.keptChanges?.(gone);
    if (changes) await db(def.table).where({ gid }).update({ ...changes, updated_at: now() });
    return;
  }
  await hooks?.beforeDelete?.(db, files, Number(existing.id));
  if (def.onDelete === 'delete') await db(def.table).where({ gid }).delete();
  else await db(def.table).where({ gid }).update(def.onDelete.set);
}

async function applyUpsert(db: Db, def: EntityDef, change: PulledChange): Promise<void> {
  const hooks = HOOKS[def.entity];
  const data: Row = { ...change.data!, gid: change.gid };
  const existing = await existingRow(db, def, change);
  const row = await rowOf(db, def, data);
  const local = hooks?.local ? await hooks.local(db, row, data, existing) : {};
  if (!local) return;
  const values = { ...row, ...local, gid: change.gid };
  let id: number;
  if (existing) {
    id = Number(existing.id);
    await db(def.table).where({ id }).update(values);
  } else {
    const [inserted] = await db(def.table).insert(values).returning('id');
    id = Number((inserted as { id: number }).id);
  }
  await hooks?.after?.(db, id, data);
}

/** Applies the changes and stores the cursor in one transaction; returns how many changes were applied. */
export async function applyPage(db: Knex, files: BranchFiles, changes: PulledChange[], cursor: string): Promise<number> {
  let applied = 0;
  await db.transaction(async (trx) => {
    for (const change of changes) {
      const def = entityDef(change.entity);
      if (change.entity === PARAMETERS_ENTITY && change.data) await applyParameters(trx, change.data);
      else if (!def) continue;
      else if (change.op === 'delete' || !change.data) await applyDelete(trx, files, def, change.gid, change.op === 'delete' ? change.data : null);
      else await applyUpsert(trx, def, change);
      applied++;
    }
    await trx('sync_state').where({ id: 1 }).update({ cursor, updated_at: now() });
  });
  forgetCachedUsers(db);
  catalogChanged(db);
  configChanged(db);
  routesChanged(db);
  forgetCompiledRuleSets();
  return applied;
}
