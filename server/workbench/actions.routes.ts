import Router from '@koa/router';
import type { Deps } from '../context.js';
import { parseBody, parseId, parseQuery } from '../http/validate.js';
import { ActionCreate, ActionListQuery, ActionUpdate } from './actions.schema.js';
import { createAction, getAction, listActions, updateAction } from './actions.service.js';
import { documented } from '../http/openapi.js';

/** /api/actions: reads for any user, writes for admins. */
export function actionRoutes({ db, requireUser, requireAdmin }: Deps): Router {
  const router = new Router({ prefix: '/actions' });

  router.get('/', requireUser, documented({ query: ActionListQuery }), async (ctx) => {
    ctx.body = await listActions(db, parseQuery(ctx, ActionListQuery));
  });
  router.get('/:id', requireUser, async (ctx) => {
    ctx.body = await getAction(db, parseId(ctx.params.id, 'Action'));
  });
  router.post('/', ...requireAdmin, documented({ body: ActionCreate }), async (ctx) => {
    const action = await createAction(db, parseBody(ctx, ActionCreate));
    ctx.status = 201;
    ctx.body = action;
  });
  router.put('/:id', ...requireAdmin, documented({ body: ActionUpdate }), async (ctx) => {
    const id = parseId(ctx.params.id, 'Action');
    ctx.body = await updateAction(db, id, parseBody(ctx, ActionUpdate));
  });
  return router;
}
