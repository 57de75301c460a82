import type { Db } from '../db/knex.js';
import type { Role, User, UserStatus } from '../../contract/users.js';
import { conflict, notFound, validationFailed } from '../http/errors.js';
import { hashPassword } from '../auth/passwords.js';
import { assertStrongPassword } from '../auth/password-policy.js';
import { ensureCaselessUsernames } from './username-case.js';
import { findUserRow, insertUser, toUser, updateUserRow, type NewUser } from './users.repository.js';

export interface UserInput {
  username?: string;
  password?: string;
  full_name?: string;
  role?: Role;
  status?: UserStatus;
  department?: string;
  department_id?: number | null;
  position_id?: number | null;
}

/** Resolves department name and id together: either one given sets both, so the copy in users stays in step. */
async function departmentFields(db: Db, input: UserInput): Promise<Pick<NewUser, 'department' | 'department_id'> | undefined> {
  if (input.department_id !== undefined && input.department_id !== null) {
    const dept = await db('departments').where({ id: input.department_id }).first('id', 'name');
    if (!dept) throw validationFailed(`Department ${input.department_id} does not exist`);
    return { department: dept.name, department_id: Number(dept.id) };
  }
  if (input.department !== undefined) {
    const name = input.department.trim();
    const dept = name ? await db('departments').where({ name }).first('id') : undefined;
    return { department: name, department_id: dept ? Number(dept.id) : null };
  }
  if (input.department_id === null) return { department: '', department_id: null };
  return undefined;
}

/** Whether a user other than `self` has this username in any case (ADMIN is taken when admin exists). */
async function usernameTakenByAnother(db: Db, username: string, self?: number): Promise<boolean> {
  const query = db('users').whereRaw('lower(username) = lower(?)', [username]);
  if (self !== undefined) query.whereNot({ id: self });
  return !!(await query.first('id'));
}

async function checkPosition(db: Db, positionId: number | null | undefined): Promise<void> {
  if (positionId && !(await db('positions').where({ id: positionId }).first('id'))) {
    throw validationFailed(`Position ${positionId} does not exist`);
  }
}

export async function createUser(db: Db, input: Required<Pick<UserInput, 'username' | 'password' | 'full_name' | 'role'>> & UserInput): Promise<User> {
  if (await usernameTakenByAnother(db, input.username)) throw conflict(`Username "${input.username}" is already taken`);
  await assertStrongPassword(input.password, input.username);
  await checkPosition(db, input.position_id);
  const dept = (await departmentFields(db, input)) ?? { department: '', department_id: null };
  return insertUser(db, {
    username: input.username,
    password_hash: await hashPassword(input.password),
    full_name: input.full_name,
    role: input.role,
    status: input.status ?? 'active',
    ...dept,
    position_id: input.position_id ?? null,
  });
}

/** At least one active admin must remain, or nobody could administer the install again. */
async function keepsAnAdmin(db: Db, id: number, patch: Partial<NewUser>): Promise<boolean> {
  const demoted = (patch.role && patch.role !== 'admin') || (patch.status && patch.status !== 'active');
  if (!demoted) return true;
  const others = await db('users').where({ role: 'admin', status: 'active' }).whereNot({ id }).count({ count: '*' }).first();
  return Number(others?.count ?? 0) > 0;
}

export async function updateUser(db: Db, id: number, input: UserInput): Promise<User> {
  const row = await findUserRow(db, id);
  if (!row) throw notFound('User');
  const renamed = input.username !== undefined && input.username !== row.username;
  if (renamed && (await usernameTakenByAnother(db, input.username!, id))) throw conflict(`Username "${input.username}" is already taken`);
  await checkPosition(db, input.position_id);
  const patch: Partial<NewUser> = {};
  if (input.username !== undefined) patch.username = input.username;
  if (input.full_name !== undefined) patch.full_name = input.full_name;
  if (input.role !== undefined) patch.role = input.role;
  if (input.status !== undefined) patch.status = input.status;
  if (input.position_id !== undefined) patch.position_id = input.position_id;
  if (input.password !== undefined) {
    await assertStrongPassword(input.password, input.username ?? row.username);
    patch.password_hash = await hashPassword(input.password);
  }
  Object.assign(patch, await departmentFields(db, input));
  if (row.role === 'admin' && row.status === 'active' && !(await keepsAnAdmin(db, id, patch))) {
    throw conflict('The last active administrator cannot be disabled or demoted');
  }
  await updateUserRow(db, id, patch);
  // A rename may have removed the last clash of an older install: the index can hold uniqueness from now on.
  if (renamed) await ensureCaselessUsernames(db, { tellAdmins: false });
  return toUser((await findUserRow(db, id))!);
}

export async function getUser(db: Db, id: number): Promise<User> {
  const row = await findUserRow(db, id);
  if (!row) throw notFound('User');
  return toUser(row);
}
