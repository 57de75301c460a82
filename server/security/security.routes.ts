// /api/security (admin): login lockouts (list, lift) and the audit log.
import Router from '@koa/router';
import { z } from 'zod';
import type { Deps } from '../context.js';
import { Paging, parseQuery } from '../http/validate.js';
import { notFound } from '../http/errors.js';
import { audit, listAudit } from './audit.js';
import { listLockouts } from './throttle.js';
import { documented } from '../http/openapi.js';

const AuditQuery = Paging.extend({
  action: z.string().max(64).optional(),
  device_id: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
});

export function securityRoutes({ db, requireAdmin }: Deps): Router {
  const router = new Router({ prefix: '/security' });
  router.use(...requireAdmin);

  router.get('/lockouts', async (ctx) => {
    ctx.body = await listLockouts(db);
  });
  router.delete('/lockouts/:key', async (ctx) => {
    const key = String(ctx.params.key ?? '');
    const removed = await db('login_throttle').where({ key }).delete();
    if (!Number(removed)) throw notFound('Lockout');
    await audit(db, ctx, { action: 'auth.lockout_lifted', target: key });
    ctx.body = { lifted: true };
  });
  router.get('/audit', documented({ query: AuditQuery }), async (ctx) => {
    ctx.body = await listAudit(db, parseQuery(ctx, AuditQuery));
  });
  return router;
}
