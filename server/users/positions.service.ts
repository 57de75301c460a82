import type { Db } from '../db/knex.js';
import type { Position, PositionKnowledge } from '../../contract/users.js';
import { conflict, notFound, validationFailed } from '../http/errors.js';
import { toBool, toNullableNumber } from '../db/rows.js';
import { now } from '../db/time.js';
import { forgetCachedUsers } from './users.repository.js';
import { searchAndPage } from '../db/paginate.js';
import type { OrgListFilter } from './departments.service.js';

export interface KnowledgeInput {
  title?: string;
  kind?: PositionKnowledge['kind'];
  ref_id?: number | null;
  /** Omitted on create → true; omitted on update → kept; an explicit false is stored as false (rule 2.3.1). */
  is_mandatory?: boolean;
  sort_order?: number;
}

export interface PositionInput {
  name?: string;
  description?: string;
  /** When given, the new full set of knowledge items; on update an item may name an existing one by id. */
  knowledge?: (KnowledgeInput & { id?: number })[];
}

interface KnowledgeRow {
  id: number;
  position_id: number;
  title: string;
  kind: PositionKnowledge['kind'];
  ref_id: number | null;
  is_mandatory: number | boolean;
  sort_order: number;
}

const toKnowledge = (r: KnowledgeRow): PositionKnowledge => ({
  id: Number(r.id),
  position_id: Number(r.position_id),
  title: r.title,
  kind: r.kind,
  ref_id: toNullableNumber(r.ref_id),
  is_mandatory: toBool(r.is_mandatory),
  sort_order: Number(r.sort_order),
});

export async function getPosition(db: Db, id: number): Promise<Position> {
  const row = await db('positions').where({ id }).first();
  if (!row) throw notFound('Position');
  const items = await db<KnowledgeRow>('position_knowledge').where({ position_id: id }).orderBy(['sort_order', 'id']);
  return { id: Number(row.id), name: row.name, description: row.description, knowledge: items.map(toKnowledge), created_at: row.created_at, updated_at: row.updated_at };
}

export async function listPositions(db: Db, filter: OrgListFilter = {}): Promise<Position[]> {
  const query = db('positions').orderBy(['name', 'id']);
  const rows = await searchAndPage(query, ['name'], filter);
  const items = await db<KnowledgeRow>('position_knowledge')
    .whereIn('position_id', rows.map((r: { id: number }) => r.id))
    .orderBy(['sort_order', 'id']);
  return rows.map((row) => ({
    id: Number(row.id),
    name: row.name,
    description: row.description,
    knowledge: items.filter((i) => Number(i.position_id) === Number(row.id)).map(toKnowledge),
    created_at: row.created_at,
    updated_at: row.updated_at,
  }));
}

async function assertNameFree(db: Db, name: string, exceptId?: number): Promise<void> {
  const query = db('positions').where({ name });
  if (exceptId) query.whereNot({ id: exceptId });
  if (await query.first('id')) throw conflict(`Position "${name}" already exists`);
}

const knowledgeRow = (positionId: number, item: KnowledgeInput, index: number) => ({
  position_id: positionId,
  title: item.title ?? '',
  kind: item.kind ?? 'text',
  ref_id: item.ref_id ?? null,
  is_mandatory: item.is_mandatory ?? true,
  sort_order: item.sort_order ?? index,
});

/**
 * Makes `items` the position's knowledge. An item is the existing one with its id, or else the first not yet matched
 * with the same title and kind: that one is edited and keeps what the item omits (is_mandatory included, rule
 * 2.3.1); the others are created, and existing items left unmatched are removed.
 */
async function replaceKnowledge(trx: Db, positionId: number, items: (KnowledgeInput & { id?: number })[]): Promise<void> {
  const unmatched = new Map((await trx<KnowledgeRow>('position_knowledge').where({ position_id: positionId })).map((r) => [Number(r.id), r]));
  for (const [index, item] of items.entries()) {
    const match =
      item.id !== undefined ? unmatched.get(item.id) : [...unmatched.values()].find((r) => r.title === item.title && r.kind === (item.kind ?? r.kind));
    if (item.id !== undefined && !match) throw validationFailed(`Invalid knowledge.${index}.id: ${item.id} is not a knowledge item of this position`);
    if (!match) {
      await trx('position_knowledge').insert(knowledgeRow(positionId, item, index));
      continue;
    }
    unmatched.delete(Number(match.id));
    const kept = { title: match.title, kind: match.kind, ref_id: match.ref_id, is_mandatory: toBool(match.is_mandatory), sort_order: index };
    const { position_id: _, ...row } = knowledgeRow(positionId, { ...kept, ...definedFields(item) }, index);
    await trx('position_knowledge').where({ id: match.id }).update(row);
  }
  if (unmatched.size) await trx('position_knowledge').whereIn('id', [...unmatched.keys()]).delete();
}

const definedFields = (item: KnowledgeInput & { id?: number }): KnowledgeInput =>
  Object.fromEntries(Object.entries(item).filter(([key, value]) => key !== 'id' && value !== undefined)) as KnowledgeInput;

export async function createPosition(db: Db, input: PositionInput & { name: string }): Promise<Position> {
  return db.transaction(async (trx) => {
    await assertNameFree(trx, input.name);
    const stamp = now();
    const [row] = await trx('positions').insert({ name: input.name, description: input.description ?? '', created_at: stamp, updated_at: stamp }).returning('id');
    const id = Number((row as { id: number }).id);
    if (input.knowledge?.length) await trx('position_knowledge').insert(input.knowledge.map((k, i) => knowledgeRow(id, k, i)));
    return getPosition(trx, id);
  });
}

export async function updatePosition(db: Db, id: number, input: PositionInput): Promise<Position> {
  return db.transaction(async (trx) => {
    await getPosition(trx, id);
    if (input.name !== undefined) await assertNameFree(trx, input.name, id);
    await trx('positions')
      .where({ id })
      .update({ ...(input.name !== undefined && { name: input.name }), ...(input.description !== undefined && { description: input.description }), updated_at: now() });
    if (input.knowledge) await replaceKnowledge(trx, id, input.knowledge);
    return getPosition(trx, id);
  });
}

export async function deletePosition(db: Db, id: number): Promise<Position> {
  const position = await getPosition(db, id);
  await db.transaction(async (trx) => {
    await trx('users').where({ position_id: id }).update({ position_id: null, updated_at: now() });
    forgetCachedUsers(trx);
    await trx('position_knowledge').where({ position_id: id }).delete();
    await trx('positions').where({ id }).delete();
  });
  return position;
}

export async function addKnowledge(db: Db, positionId: number, item: KnowledgeInput & { title: string }): Promise<PositionKnowledge> {
  await getPosition(db, positionId);
  const count = await db('position_knowledge').where({ position_id: positionId }).count({ count: '*' }).first();
  const [row] = await db('position_knowledge').insert(knowledgeRow(positionId, item, Number(count?.count ?? 0))).returning('*');
  return toKnowledge(row as KnowledgeRow);
}

async function findKnowledge(db: Db, positionId: number, itemId: number): Promise<KnowledgeRow> {
  const row = await db<KnowledgeRow>('position_knowledge').where({ id: itemId, position_id: positionId }).first();
  if (!row) throw notFound('Position knowledge item');
  return row;
}

export async function getKnowledge(db: Db, positionId: number, itemId: number): Promise<PositionKnowledge> {
  return toKnowledge(await findKnowledge(db, positionId, itemId));
}

export async function updateKnowledge(db: Db, positionId: number, itemId: number, item: KnowledgeInput): Promise<PositionKnowledge> {
  await findKnowledge(db, positionId, itemId);
  const patch = Object.fromEntries(Object.entries(item).filter(([, v]) => v !== undefined));
  if (Object.keys(patch).length) await db('position_knowledge').where({ id: itemId }).update(patch);
  return getKnowledge(db, positionId, itemId);
}

export async function deleteKnowledge(db: Db, positionId: number, itemId: number): Promise<PositionKnowledge> {
  const item = await getKnowledge(db, positionId, itemId);
  await db('position_knowledge').where({ id: itemId }).delete();
  return item;
}
