import type { Db } from '../db/knex.js';
import type { Department } from '../../contract/users.js';
import { conflict, notFound } from '../http/errors.js';
import { now } from '../db/time.js';
import { forgetCachedUsers } from './users.repository.js';
import { searchAndPage } from '../db/paginate.js';

/** Name contains `q`; `page` + `size` page the list (all when neither is given). */
export interface OrgListFilter {
  q?: string;
  page?: number;
  size?: number;
}

interface DepartmentRow {
  id: number;
  name: string;
  description: string;
  created_at: string;
  updated_at: string;
}

const userCounts = (db: Db) => db('users').select('department_id').count({ count: '*' }).whereNotNull('department_id').groupBy('department_id');

export async function listDepartments(db: Db, filter: OrgListFilter = {}): Promise<Department[]> {
  const query = db<DepartmentRow>('departments').orderBy(['name', 'id']);
  const [rows, counts] = await Promise.all([searchAndPage(query, ['name'], filter), userCounts(db)]);
  const byId = new Map((counts as { department_id: number; count: unknown }[]).map((c) => [Number(c.department_id), Number(c.count)]));
  return rows.map((r) => ({ ...r, id: Number(r.id), user_count: byId.get(Number(r.id)) ?? 0 }));
}

export async function getDepartment(db: Db, id: number): Promise<Department> {
  const row = await db<DepartmentRow>('departments').where({ id }).first();
  if (!row) throw notFound('Department');
  const count = await db('users').where({ department_id: id }).count({ count: '*' }).first();
  return { ...row, id: Number(row.id), user_count: Number(count?.count ?? 0) };
}

async function assertNameFree(db: Db, name: string, exceptId?: number): Promise<void> {
  const query = db('departments').where({ name });
  if (exceptId) query.whereNot({ id: exceptId });
  if (await query.first('id')) throw conflict(`Department "${name}" already exists`);
}

export async function createDepartment(db: Db, input: { name: string; description?: string }): Promise<Department> {
  await assertNameFree(db, input.name);
  const stamp = now();
  const [row] = await db('departments')
    .insert({ name: input.name, description: input.description ?? '', created_at: stamp, updated_at: stamp })
    .returning('id');
  const id = Number((row as { id: number }).id);
  // Users who already carry this department name by text join it.
  await db('users').where({ department: input.name }).whereNull('department_id').update({ department_id: id });
  forgetCachedUsers(db);
  return getDepartment(db, id);
}

/** A rename is copied into the department text of every member, in the same transaction. */
export async function updateDepartment(db: Db, id: number, input: { name?: string; description?: string }): Promise<Department> {
  return db.transaction(async (trx) => {
    const current = await getDepartment(trx, id);
    if (input.name !== undefined && input.name !== current.name) {
      await assertNameFree(trx, input.name, id);
      await trx('users')
        .where({ department_id: id })
        .orWhere((q) => q.where({ department: current.name }).whereNull('department_id'))
        .update({ department: input.name, department_id: id, updated_at: now() });
      forgetCachedUsers(trx);
    }
    await trx('departments')
      .where({ id })
      .update({ ...(input.name !== undefined && { name: input.name }), ...(input.description !== undefined && { description: input.description }), updated_at: now() });
    return getDepartment(trx, id);
  });
}

export async function deleteDepartment(db: Db, id: number): Promise<Department> {
  const current = await getDepartment(db, id);
  if (current.user_count > 0) throw conflict(`Department "${current.name}" still has ${current.user_count} user(s); move them first`);
  await db('departments').where({ id }).delete();
  return current;
}
