import type { Context, Middleware, Next } from 'koa';
import type { Knex } from 'knex';
import type { User } from '../../contract/users.js';
import { AppError, forbidden, unauthorized } from '../http/errors.js';
import { AuthErrorCode } from '../../contract/users.js';
import { verifyToken } from './tokens.js';
import { findCachedUserRow, toUser } from '../users/users.repository.js';

declare module 'koa' {
  interface DefaultState {
    user?: User;
    raw?: boolean;
  }
}

export function currentUser(ctx: Context): User {
  const user = ctx.state.user as User | undefined;
  if (!user) throw unauthorized();
  return user;
}

/** Accepts `Authorization: Bearer <jwt>`; the user is re-read on every request so disabling or demoting takes effect at once. */
export function requireUser(db: Knex, secret: string): Middleware {
  return async (ctx: Context, next: Next) => {
    const header = ctx.get('authorization');
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match) throw unauthorized(header ? 'Malformed Authorization header' : 'Authentication required');
    const userId = verifyToken(secret, match[1]!);
    if (!userId) throw unauthorized('Invalid or expired token');
    const row = await findCachedUserRow(db, userId);
    if (!row || row.status !== 'active') throw unauthorized('This account is no longer active');
    ctx.state.user = toUser(row);
    if (ctx.state.user.must_change_password && !PASSWORD_CHANGE_PATHS.has(`${ctx.method} ${ctx.path}`)) {
      throw new AppError(403, AuthErrorCode.passwordChangeRequired, 'Choose your own password first (PUT /api/auth/password)');
    }
    await next();
  };
}

/** What a user who must change their password may still do: read and set their profile, change the password. */
const PASSWORD_CHANGE_PATHS = new Set(['GET /api/auth/me', 'PUT /api/auth/me', 'PUT /api/auth/password']);

export const requireRole =
  (role: User['role']): Middleware =>
  async (ctx: Context, next: Next) => {
    if (currentUser(ctx).role !== role) throw forbidden('This endpoint is for administrators');
    await next();
  };
