import crypto from 'node:crypto';
import type { Db } from '../db/knex.js';
import { hashPassword } from '../auth/passwords.js';
import { countUsers, insertUser } from './users.repository.js';

/**
 * On first start with an empty database, creates the active admin. Without a configured password a random one
 * is generated and returned so the caller can print it once.
 */
export async function ensureAdmin(db: Db, username: string, password?: string): Promise<{ created: boolean; generatedPassword?: string }> {
  if ((await countUsers(db)) > 0) return { created: false };
  const generated = password ? undefined : crypto.randomBytes(12).toString('base64url');
  await insertUser(db, {
    username,
    password_hash: await hashPassword(password ?? generated!),
    full_name: 'Administrator',
    role: 'admin',
    status: 'active',
    department: '',
    department_id: null,
    position_id: null,
  });
  return { created: true, generatedPassword: generated };
}
