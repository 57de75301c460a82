import type { Db } from '../db/knex.js';
import type { Locale, Role, User, UserStatus } from '../../contract/users.js';
import { toBool, toNullableNumber } from '../db/rows.js';
import { now } from '../db/time.js';
import { clearAfterWrite, perDatabase } from '../db/read-cache.js';
import { searchAndPage } from '../db/paginate.js';

// About 2,000 users (a row is some 500 bytes): those active in the last 2 s.
const userCache = perDatabase<UserRow>({ name: 'users', maxBytes: 1024 * 1024, ttlMs: 2_000 });

/** Drops cached users after any write to the users table. */
export const forgetCachedUsers = (db: Db): void => clearAfterWrite(userCache(db), db);

export interface UserRow {
  id: number;
  username: string;
  password_hash: string;
  full_name: string;
  role: Role;
  status: UserStatus;
  department: string;
  department_id: number | null;
  position_id: number | null;
  locale: Locale | null;
  /** Set for users created by a bulk import until they choose their own password (0/1 on SQLite). */
  must_change_password?: boolean | number;
  created_at: string;
  updated_at: string;
}

export const toUser = (row: UserRow): User => ({
  id: Number(row.id),
  username: row.username,
  full_name: row.full_name,
  role: row.role,
  status: row.status,
  department: row.department,
  department_id: toNullableNumber(row.department_id),
  position_id: toNullableNumber(row.position_id),
  locale: row.locale ?? null,
  must_change_password: toBool(row.must_change_password ?? false),
  created_at: row.created_at,
  updated_at: row.updated_at,
});

export const findUserRow = (db: Db, id: number): Promise<UserRow | undefined> => db<UserRow>('users').where({ id }).first();

/** findUserRow through the cache: what the auth guard reads on every request. */
export const findCachedUserRow = (db: Db, id: number): Promise<UserRow | undefined> => userCache(db).get(String(id), () => findUserRow(db, id));

/**
 * The user a username names, in any case (`Admin` is `admin`). Where older rows still differ only in case
 * (username-case.ts), the exact spelling picks one of them and any other spelling none.
 */
export async function findUserRowByUsername(db: Db, username: string): Promise<UserRow | undefined> {
  const rows = await db<UserRow>('users')
    .whereRaw('lower(username) = lower(?)', [username])
    .orderByRaw('CASE WHEN username = ? THEN 0 ELSE 1 END', [username])
    .limit(2);
  const [first, second] = rows;
  return first && (first.username === username || !second) ? first : undefined;
}

export interface UserFilter {
  role?: Role;
  status?: UserStatus;
  department?: string;
  q?: string;
  page?: number;
  size?: number;
}

export async function listUsers(db: Db, filter: UserFilter = {}): Promise<User[]> {
  const query = db<UserRow>('users').orderBy('id');
  if (filter.role) query.where('role', filter.role);
  if (filter.status) query.where('status', filter.status);
  if (filter.department !== undefined) query.where('department', filter.department);
  return (await searchAndPage(query, ['username', 'full_name'], filter)).map(toUser);
}

export type NewUser = Omit<UserRow, 'id' | 'locale' | 'created_at' | 'updated_at' | 'must_change_password'> & { must_change_password?: boolean };

export async function insertUser(db: Db, user: NewUser): Promise<User> {
  const stamp = now();
  const [row] = await db('users').insert({ ...user, created_at: stamp, updated_at: stamp }).returning('*');
  forgetCachedUsers(db);
  return toUser(row as UserRow);
}

export async function updateUserRow(db: Db, id: number, patch: Partial<NewUser & Pick<UserRow, 'locale'>>): Promise<void> {
  await db('users').where({ id }).update({ ...patch, updated_at: now() });
  forgetCachedUsers(db);
}

/** Swaps a password hash for an equivalent one (same password), unless the password was changed meanwhile. */
export async function replacePasswordHash(db: Db, id: number, previous: string, next: string): Promise<void> {
  await db('users').where({ id, password_hash: previous }).update({ password_hash: next });
  forgetCachedUsers(db);
}

export const countUsers = async (db: Db): Promise<number> => {
  const row = await db('users').count({ count: '*' }).first();
  return Number(row?.count ?? 0);
};
