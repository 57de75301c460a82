// Login throttling (docs/sync.md, "Security"): failures counted per account and per address in a 15-minute window;
// 5 lock the account, 50 the address, for 15 minutes (429 with Retry-After). An admin account's lock is kept per
// address, so failures from elsewhere can never lock every admin out; an admin can lift any lock. Only wrong passwords
// count: a login holds a place while its password is verified, and a right one gives it back.
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
  pending: number;
  pending_at: string | null;
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

const PENDING_FORGOTTEN_MS = 60_000;

interface Clock {
  at: string;
  /** Failures counted before this are forgotten (unless a lock still holds). */
  cutoff: string;
  /** Places taken before this, with nothing taken or given back since, belonged to a node that died mid-login. */
  staleCutoff: string;
  lockUntil: string;
}

function clock(): Clock {
  const now = Date.now();
  return {
    at: new Date(now).toISOString(),
    cutoff: new Date(now - WINDOW_MS).toISOString(),
    staleCutoff: new Date(now - PENDING_FORGOTTEN_MS).toISOString(),
    lockUntil: new Date(now + LOCK_MS).toISOString(),
  };
}

const firstRow = <T>(result: unknown): T | undefined => (Array.isArray(result) ? result[0] : (result as { rows: T[] }).rows[0]);

// A window that ran out starts again from nothing, unless a lock still holds.
const FRESH = `(login_throttle.window_start < ? AND COALESCE(login_throttle.locked_until, '') <= ?)`;
const STALE = `(COALESCE(login_throttle.pending_at, '') < ?)`;

/**
 * Reserves a place for one login in flight in one statement: granted while the key is not locked and its failures
 * plus the logins in flight stay under the limit, so concurrent wrong guesses can never exceed it. Answers
 * 'locked' or 'full' (wait: the logins in flight are still being verified) when not granted.
 */
async function reservePlace(db: Db, key: string, limit: number): Promise<'granted' | 'full' | { locked: string }> {
  const c = clock();
  const result = await db.raw(
    `INSERT INTO login_throttle (key, failures, window_start, locked_until, pending, pending_at) VALUES (?, 0, ?, NULL, 1, ?)
     ON CONFLICT (key) DO UPDATE SET
       failures = CASE WHEN ${FRESH} THEN 0 ELSE login_throttle.failures END,
       window_start = CASE WHEN ${FRESH} THEN ? ELSE login_throttle.window_start END,
       locked_until = CASE WHEN ${FRESH} THEN NULL ELSE login_throttle.locked_until END,
       pending = CASE WHEN ${STALE} THEN 1 ELSE login_throttle.pending + 1 END,
       pending_at = ?
     WHERE COALESCE(login_throttle.locked_until, '') <= ?
       AND (${FRESH} OR login_throttle.failures + CASE WHEN ${STALE} THEN 0 ELSE login_throttle.pending END < ?)
     RETURNING pending`,
    [key, c.at, c.at, c.cutoff, c.at, c.cutoff, c.at, c.at, c.cutoff, c.at, c.staleCutoff, c.at, c.at, c.cutoff, c.at, c.staleCutoff, limit],
  );
  if (firstRow(result)) return 'granted';
  const row = (await db<ThrottleRow>('login_throttle').where({ key }).first()) as ThrottleRow | undefined;
  if (!row?.locked_until || row.locked_until <= c.at) return 'full';
  // A try at a locked key is a failure too (the lockouts list shows how hard the key is being tried).
  await db('login_throttle').where({ key }).increment('failures', 1);
  return { locked: row.locked_until };
}

/** Gives a place back after a wrong password, which now counts as a failure; answers the failures and the lock. */
async function releaseAsFailure(db: Db, key: string, limit: number): Promise<{ failures: number; lockedUntil: string | null }> {
  const c = clock();
  const result = await db.raw(
    `INSERT INTO login_throttle (key, failures, window_start, locked_until, pending, pending_at) VALUES (?, 1, ?, NULL, 0, ?)
     ON CONFLICT (key) DO UPDATE SET
       failures = CASE WHEN ${FRESH} THEN 1 ELSE login_throttle.failures + 1 END,
       window_start = CASE WHEN ${FRESH} THEN ? ELSE login_throttle.window_start END,
       locked_until = CASE WHEN login_throttle.locked_until > ? THEN login_throttle.locked_until
                           WHEN CASE WHEN ${FRESH} THEN 1 ELSE login_throttle.failures + 1 END >= ? THEN ? ELSE NULL END,
       pending = CASE WHEN login_throttle.pending > 0 THEN login_throttle.pending - 1 ELSE 0 END,
       pending_at = ?
     RETURNING failures, locked_until`,
    [key, c.at, c.at, c.cutoff, c.at, c.cutoff, c.at, c.at, c.at, c.cutoff, c.at, limit, c.lockUntil, c.at],
  );
  const row = firstRow<{ failures: number; locked_until: string | null }>(result)!;
  // Once the key is locked, every login waiting for it is refused at once.
  if (row.locked_until) for (const wake of [...(waiting.get(key) ?? [])]) wake();
  else placeGivenBack(key);
  return { failures: Number(row.failures), lockedUntil: row.locked_until };
}

/** Gives a place back without counting anything; `clear` also forgets the key's failures and lock (a right password). */
async function releasePlace(db: Db, key: string, clear: boolean): Promise<void> {
  await db('login_throttle')
    .where({ key })
    .update({
      pending: db.raw('CASE WHEN pending > 0 THEN pending - 1 ELSE 0 END'),
      pending_at: new Date().toISOString(),
      ...(clear ? { failures: 0, locked_until: null } : {}),
    });
  placeGivenBack(key);
}

// Logins of this node waiting for a place, first come first served: a place given back here wakes the first of its
// key; places given back on another node are found by trying again now and then.
const waiting = new Map<string, (() => void)[]>();

function waitForPlace(key: string, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const queue = waiting.get(key) ?? [];
    waiting.set(key, queue);
    const wake = () => {
      clearTimeout(timer);
      const at = queue.indexOf(wake);
      if (at >= 0) queue.splice(at, 1);
      if (queue.length === 0 && waiting.get(key) === queue) waiting.delete(key);
      resolve();
    };
    const timer = setTimeout(wake, ms);
    queue.push(wake);
  });
}

const placeGivenBack = (key: string) => waiting.get(key)?.[0]?.();

/**
 * Reserves a place on a key, waiting while it is full of logins in flight (for as long as it takes: they are all
 * being verified, and a node that died mid-login frees its places a minute later); throws 429 while it is locked.
 */
async function takePlace(db: Db, ctx: Context, key: string, limit: number): Promise<void> {
  for (let pause = 50; ; pause = Math.min(pause * 2, 1000)) {
    const place = await reservePlace(db, key, limit);
    if (place === 'granted') return;
    if (place !== 'full') throw LOCKED(ctx, place.locked);
    if (ctx.req.socket.destroyed) throw new AppError(499, 'client_closed', 'The client went away while its login waited');
    await waitForPlace(key, pause / 2 + Math.random() * pause);
  }
}

export interface LoginAttempt {
  /** The password was wrong: it counts as a failure on both keys; a lock that starts now is written to the audit log. */
  failed(): Promise<void>;
  /** The password was right: nothing is counted, and the account's failures are cleared. */
  succeeded(): Promise<void>;
}

/**
 * Reserves a place for a login on its account and its address before the password is verified, so that concurrent
 * attempts can never try more passwords than the limit; only a wrong password then counts as a failure, so however
 * many right ones arrive at once nothing locks (those beyond the limit wait for a place instead). Throws 429 (with
 * Retry-After) when either key is locked.
 */
export async function claimLoginAttempt(db: Db, ctx: Context, keys: { account: string; address: string }): Promise<LoginAttempt> {
  await takePlace(db, ctx, keys.account, ACCOUNT_LIMIT);
  try {
    await takePlace(db, ctx, keys.address, ADDRESS_LIMIT);
  } catch (err) {
    await releasePlace(db, keys.account, false);
    throw err;
  }
  return {
    async failed() {
      const account = await releaseAsFailure(db, keys.account, ACCOUNT_LIMIT);
      const address = await releaseAsFailure(db, keys.address, ADDRESS_LIMIT);
      if (account.failures === ACCOUNT_LIMIT) await audit(db, ctx, { action: 'auth.login_locked', target: keys.account });
      if (address.failures === ADDRESS_LIMIT) await audit(db, ctx, { action: 'auth.login_locked', target: keys.address });
    },
    async succeeded() {
      await releasePlace(db, keys.account, true);
      await releasePlace(db, keys.address, false);
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
