import Router from '@koa/router';
import { z } from 'zod';
import type { Deps } from '../context.js';
import { currentUser } from '../auth/guards.js';
import { forbidden, notFound } from '../http/errors.js';
import { parseId, parseQuery, QueryBool } from '../http/validate.js';
import { findNotification, listNotifications, markAllRead, markRead, unreadCount } from './notifications.service.js';

const ListQuery = z.object({ unread_only: QueryBool.optional() });

export function notificationRoutes({ db, requireUser }: Deps): Router {
  const router = new Router({ prefix: '/notifications' });
  router.use(requireUser);

  router.get('/', async (ctx) => {
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

  router.put('/:id/read', async (ctx) => {
    const id = parseId(ctx.params.id, 'Notification');
    const notification = await findNotification(db, id);
    if (!notification) throw notFound('Notification');
    if (notification.user_id !== currentUser(ctx).id) throw forbidden('This notification belongs to another user');
    await markRead(db, id);
    ctx.body = { id, read: true };
  });

  return router;
}
