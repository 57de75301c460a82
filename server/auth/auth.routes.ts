import Router from '@koa/router';
import { z } from 'zod';
import type { Deps } from '../context.js';
import { AuthErrorCode, LOCALES, type LoginResult } from '../../contract/users.js';
import { parseBody } from '../http/validate.js';
import { AppError, unauthorized } from '../http/errors.js';
import { currentUser } from './guards.js';
import { hashPassword, needsRehash, verifyPassword } from './passwords.js';
import { signToken } from './tokens.js';
import { assertStrongPassword } from './password-policy.js';
import { findUserRow, findUserRowByUsername, replacePasswordHash, toUser, updateUserRow } from '../users/users.repository.js';
import { readConfigValue } from '../system/config.service.js';
import { claimLoginAttempt, throttleKeys } from '../security/throttle.js';
import { documented } from '../http/openapi.js';

const LoginBody = z.object({
  username: z.string().trim().min(1).max(64),
  password: z.string().min(1).max(1024),
});

/** What a user may change about themselves (PUT /auth/me); null forgets the choice. */
const MyPreferences = z.strictObject({
  locale: z.enum(LOCALES).nullable().optional(),
});

const PasswordChangeBody = z.object({
  current_password: z.string().min(1).max(1024),
  new_password: z.string().min(1).max(1024),
});

// Verified against when the username is unknown, so both failures take the same time (same profile as new hashes).
const DUMMY_HASH = '$argon2id$v=19$m=47104,p=1,t=1$x1X2SqVQCi6nh2IzU/EyOw$IDY4Pzmf7UyDChb4U/DUVQLZ1fqV6Wt9U2dpMvbHr8M';

export function authRoutes({ db, secrets, requireUser }: Deps): Router {
  const router = new Router();

  router.post('/auth/login', documented({ body: LoginBody }), async (ctx) => {
    const { username, password } = parseBody(ctx, LoginBody);
    const row = await findUserRowByUsername(db, username);
    const keys = throttleKeys(username.toLowerCase(), ctx.ip, row?.role === 'admin');
    const attempt = await claimLoginAttempt(db, ctx, keys);
    const valid = await verifyPassword(row?.password_hash ?? DUMMY_HASH, password);
    if (!row || !valid) {
      await attempt.failed();
      throw unauthorized('Wrong username or password');
    }
    await attempt.succeeded();
    if (row.status !== 'active') throw new AppError(403, 'account_disabled', 'This account has been disabled');
    // A hash from an earlier profile is replaced while the password is at hand (see passwords.ts).
    if (needsRehash(row.password_hash)) await replacePasswordHash(db, Number(row.id), row.password_hash, await hashPassword(password));
    const minutes = await readConfigValue<number>(db, 'jwt_expire_minutes');
    const expiresIn = minutes * 60;
    const result: LoginResult = {
      token: signToken(secrets.jwtSecret, Number(row.id), row.role, expiresIn),
      expires_in: expiresIn,
      user: { id: Number(row.id), username: row.username, full_name: row.full_name, role: row.role },
      must_change_password: toUser(row).must_change_password,
    };
    ctx.body = result;
  });

  router.get('/auth/me', requireUser, (ctx) => {
    ctx.body = currentUser(ctx);
  });

  router.put('/auth/me', requireUser, documented({ body: MyPreferences }), async (ctx) => {
    const { id } = currentUser(ctx);
    const { locale } = parseBody(ctx, MyPreferences);
    if (locale !== undefined) await updateUserRow(db, id, { locale });
    ctx.body = toUser((await findUserRow(db, id))!);
  });

  router.put('/auth/password', requireUser, documented({ body: PasswordChangeBody }), async (ctx) => {
    const { id } = currentUser(ctx);
    const { current_password, new_password } = parseBody(ctx, PasswordChangeBody);
    const row = (await findUserRow(db, id))!;
    if (!(await verifyPassword(row.password_hash, current_password))) throw new AppError(400, AuthErrorCode.wrongPassword, 'The current password is not right');
    if (current_password === new_password) throw new AppError(400, AuthErrorCode.samePassword, 'The new password must differ from the current one');
    await assertStrongPassword(new_password, row.username);
    await updateUserRow(db, id, { password_hash: await hashPassword(new_password), must_change_password: false });
    ctx.body = toUser((await findUserRow(db, id))!);
  });

  return router;
}
