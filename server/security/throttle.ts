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

const LOCKED = (ctx: Context, lockedUntil: string) => {
  const seconds = Math.max(1, Math.ceil((Date.parse(lockedUntil) - Date.now()) / 1000));
  ctx.set('retry-after', String(seconds));
  return new AppError(429, SecurityErrorCode.loginLocked, `Too many failed logins; try again in ${Math.ceil(seconds / 60)} minutes or ask an administrator`, { retry_after: seconds });
};

/**
 * Counts one attempt against a key in one statement (concurrent attempts each get their own number) and answers
 * that number with the lock it leaves. A window that ran out starts again at 1, unless a lock still holds; the
 * attempt that reaches the limit locks the key (and is still allowed its password check).
 */
async function countAttempt(db: Db, key: string, limit: number): Promise<{ attempt: number; lockedUntil: string | null }> {
  const now = new Date();
  const at = now.toISOString();
  const cutoff = new Date(now.getTime() - WINDOW_MS).toISOString();
  const lockUntil = new Date(now.getTime() + LOCK_MS).toISOString();
  const fresh = `(login_throttle.window_start < ? AND COALESCE(login_throttle.locked_until, '') <= ?)`;
  const result = await db.raw(
    `INSERT INTO login_throttle (key, failures, window_start, locked_until) VALUES (?, 1, ?, NULL)
     ON CONFLICT (key) DO UPDATE SET
       failures = CASE WHEN ${fresh} THEN 1 ELSE login_throttle.failures + 1 END,
       window_start = CASE WHEN ${fresh} THEN ? ELSE login_throttle.window_start END,
       locked_until = CASE WHEN ${fresh} THEN NULL
                           WHEN login_throttle.locked_until > ? THEN login_throttle.locked_until
                           WHEN login_throttle.failures + 1 >= ? THEN ? ELSE NULL END
     RETURNING failures, locked_until`,
    [key, at, cutoff, at, cutoff, at, at, cutoff, at, at, limit, lockUntil],
  );
  const row = (Array.isArray(result) ? result[0] : result.rows[0]) as { failures: number; locked_until: string | null };
  return { attempt: Number(row.failures), lockedUntil: row.locked_until };
}

/** Takes back an attempt that turned out not to be a failure (a right password, or one refused on another key). */
async function uncountAttempt(db: Db, key: string, limit: number): Promise<void> {
  await db('login_throttle')
    .where({ key })
    .where('failures', '>', 0)
    .update({ failures: db.raw('failures - 1'), locked_until: db.raw('CASE WHEN failures - 1 >= ? THEN locked_until ELSE NULL END', [limit]) });
}

export interface LoginAttempt {
  /** The password was wrong: the attempt stays counted; a lock that starts now is written to the audit log. */
  failed(): Promise<void>;
  /** The password was right: the account's failures are cleared, the address's attempt taken back. */
  succeeded(): Promise<void>;
}

/**
 * Counts a login attempt against its account and its address before the password is verified, so that concurrent
 * attempts can never try more passwords than the limit; throws 429 (with Retry-After) when either is locked.
 */
export async function claimLoginAttempt(db: Db, ctx: Context, keys: { account: string; address: string }): Promise<LoginAttempt> {
  const account = await countAttempt(db, keys.account, ACCOUNT_LIMIT);
  if (account.attempt > ACCOUNT_LIMIT) throw LOCKED(ctx, account.lockedUntil ?? new Date(Date.now() + LOCK_MS).toISOString());
  const address = await countAttempt(db, keys.address, ADDRESS_LIMIT);
  if (address.attempt > ADDRESS_LIMIT) {
    await uncountAttempt(db, keys.account, ACCOUNT_LIMIT);
    throw LOCKED(ctx, address.lockedUntil ?? new Date(Date.now() + LOCK_MS).toISOString());
  }
  return {
    async failed() {
      if (account.attempt === ACCOUNT_LIMIT) await audit(db, ctx, { action: 'auth.login_locked', target: keys.account });
      if (address.attempt === ADDRESS_LIMIT) await audit(db, ctx, { action: 'auth.login_locked', target: keys.address });
    },
    async succeeded() {
      await clearFailures(db, keys.account);
      await uncountAttempt(db, keys.address, ADDRESS_LIMIT);
    },
  };
}

export async function clearFailures(db: Db, key: string): Promise<void> {
  await db('login_throttle').where({ key }).delete();
}

export async function listLockouts(db: Db): Promise<LoginLockout[]> {
  const rows = (await db<ThrottleRow>('login_throttle').where('locked_until', '>', new Date().toISOString()).orderBy('locked_until', 'desc')) as ThrottleRow[];
  return rows.map((r) => ({ key: r.key, failures: Number(r.failures), locked_until: r.locked_until! }));
}
