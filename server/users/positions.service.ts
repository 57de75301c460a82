import type { Db } from '../db/knex.js';
import type { Position, PositionKnowledge } from '../../contract/users.js';
import { conflict, notFound } from '../http/errors.js';
import { toBool, toNullableNumber } from '../db/rows.js';
import { now } from '../db/time.js';
import { forgetCachedUsers } from './users.repository.js';

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
  /** When given, the new full set of knowledge items. */
  knowledge?: KnowledgeInput[];
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

export async function listPositions(db: Db): Promise<Position[]> {
  const [rows, items] = await Promise.all([db('positions').orderBy('name'), db<KnowledgeRow>('position_knowledge').orderBy(['sort_order', 'id'])]);
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
    if (input.knowledge) {
      await trx('position_knowledge').where({ position_id: id }).delete();
      if (input.knowledge.length) await trx('position_knowledge').insert(input.knowledge.map((k, i) => knowledgeRow(id, k, i)));
    }
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
