// Login throttling (docs/sync.md, "Security"): failures counted per account and per address in a 15-minute window;
// 5 lock the account, 50 the address, for 15 minutes (429 with Retry-After). An admin account's lock is kept per
// address, so failures from elsewhere can never lock every admin out; an admin can lift any lock.
import type { Context } from 'koa';
import type { Db } from '../db/knex.js';
import type { LoginLockout } from '../../contract/security.js';
import { SecurityErrorCode } from '../../contract/security.js';
import { AppError } from '../http/errors.js';
import { audit } from './audit.js';

const WINDOW_MS = 15 * 60_000;
const LOCK_MS = 15 * 60_000;
const ACCOUNT_LIMIT = 5;
const ADDRESS_LIMIT = 50;

interface ThrottleRow {
  key: string;
  failures: number;
  window_start: string;
  locked_until: string | null;
}

/**
 * The keys a login attempt counts against: its account (per address for admins) and its address. Usernames are
 * case-sensitive (emp1 and EMP1 are two accounts), so failures as one never lock the other.
 */
export function throttleKeys(username: string, address: string, isAdmin: boolean): { account: string; address: string } {
  return { account: isAdmin ? `account:${username}@${address}` : `account:${username}`, address: `address:${address}` };
}

/**
 * Throws 429 (with Retry-After) when any of the keys is locked; otherwise answers which keys have failures counted
 * (a successful login clears its account's, and only then writes).
 */
export async function checkLocked(db: Db, ctx: Context, keys: string[]): Promise<Set<string>> {
  const at = new Date().toISOString();
  const rows = (await db<ThrottleRow>('login_throttle').whereIn('key', keys)) as ThrottleRow[];
  const locked = rows.filter((row) => row.locked_until && row.locked_until > at).sort((a, b) => (a.locked_until! < b.locked_until! ? 1 : -1))[0];
  if (!locked) return new Set(rows.map((row) => row.key));
  const seconds = Math.max(1, Math.ceil((Date.parse(locked.locked_until!) - Date.now()) / 1000));
  ctx.set('retry-after', String(seconds));
  throw new AppError(429, SecurityErrorCode.loginLocked, `Too many failed logins; try again in ${Math.ceil(seconds / 60)} minutes or ask an administrator`, { retry_after: seconds });
}

async function countFailure(db: Db, key: string, limit: number): Promise<boolean> {
  const now = Date.now();
  const row = (await db<ThrottleRow>('login_throttle').where({ key }).first()) as ThrottleRow | undefined;
  const fresh = !row || now - Date.parse(row.window_start) > WINDOW_MS;
  const failures = fresh ? 1 : row.failures + 1;
  const lockedUntil = failures >= limit ? new Date(now + LOCK_MS).toISOString() : null;
  const values = { failures, window_start: fresh ? new Date(now).toISOString() : row!.window_start, locked_until: lockedUntil };
  await db('login_throttle').insert({ key, ...values }).onConflict('key').merge(values);
  return lockedUntil !== null && (row?.locked_until ?? '') < new Date(now).toISOString();
}

/** Counts a failed login; a lock that starts now is written to the audit log. */
export async function recordFailure(db: Db, ctx: Context, keys: { account: string; address: string }): Promise<void> {
  for (const [key, limit] of [[keys.account, ACCOUNT_LIMIT], [keys.address, ADDRESS_LIMIT]] as const) {
    if (await countFailure(db, key, limit)) await audit(db, ctx, { action: 'auth.login_locked', target: key });
  }
}

export async function clearFailures(db: Db, key: string): Promise<void> {
  await db('login_throttle').where({ key }).delete();
}

export async function listLockouts(db: Db): Promise<LoginLockout[]> {
  const rows = (await db<ThrottleRow>('login_throttle').where('locked_until', '>', new Date().toISOString()).orderBy('locked_until', 'desc')) as ThrottleRow[];
  return rows.map((r) => ({ key: r.key, failures: Number(r.failures), locked_until: r.locked_until! }));
}
