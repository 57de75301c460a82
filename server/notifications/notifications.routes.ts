import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import type { Deps } from '../context.js';
import { currentUser } from '../auth/guards.js';
import { forbidden, notFound } from '../http/errors.js';
import { parseBody, parseId, parseQuery, QueryBool } from '../http/validate.js';
import { nameText } from '../http/plain-text.js';
import { findNotification, listNotifications, markAllRead, markRead, notify, unreadCount } from './notifications.service.js';
import { documented } from '../http/openapi.js';

const ListQuery = z.object({ unread_only: QueryBool.optional() });

const message = { title: nameText(200).min(1), content: z.string().max(10_000).optional(), link: z.string().max(500).optional(), type: z.string().trim().min(1).max(50).optional() };

/** An admin's notice goes to exactly one kind of target: one user, an owner name, or everyone of a role. */
const SendBody = z.union([
  z.object({ ...message, user_id: z.number().int().min(0) }).strict(),
  z.object({ ...message, owner: z.string().max(200) }).strict(),
  z.object({ ...message, audience: z.enum(['admins', 'employees']) }).strict(),
]);

export function notificationRoutes({ db, requireUser, requireAdmin }: Deps): Router {
  const router = new Router({ prefix: '/notifications' });
  router.use(requireUser);

  router.post('/', ...requireAdmin, documented({ body: SendBody }), async (ctx) => {
    const body = parseBody(ctx, SendBody);
    const sent =
      'user_id' in body ? await notify.user(db, body.user_id, body)
      : 'owner' in body ? await notify.owner(db, body.owner, body)
      : body.audience === 'admins' ? await notify.admins(db, body)
      : await notify.employees(db, body);
    ctx.status = 201;
    ctx.body = { sent };
  });

  router.get('/', documented({ query: ListQuery }), async (ctx) => {
    const { unread_only } = parseQuery(ctx, ListQuery);
    ctx.body = await listNotifications(db, currentUser(ctx).id, unread_only ?? false);
  });

  router.get('/unread-count', async (ctx) => {
    ctx.body = { unread: await unreadCount(db, currentUser(ctx).id) };
  });

  router.put('/read-all', async (ctx) => {
    await markAllRead(db, currentUser(ctx).id);
    ctx.body = { read: true };
  });

  /** The caller's notification: 404 when missing, 403 when it is another user's (as for read). */
  const ownNotification = async (ctx: Context) => {
    const notification = await findNotification(db, parseId(ctx.params.id, 'Notification'));
    if (!notification) throw notFound('Notification');
    if (notification.user_id !== currentUser(ctx).id) throw forbidden('This notification belongs to another user');
    return notification;
  };

  router.get('/:id', async (ctx) => {
    ctx.body = await ownNotification(ctx);
  });

  router.put('/:id/read', async (ctx) => {
    const { id } = await ownNotification(ctx);
    await markRead(db, id);
    ctx.body = { id, read: true };
  });

  return router;
}
