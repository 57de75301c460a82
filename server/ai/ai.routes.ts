import Router from '@koa/router';
import type { Deps } from '../context.js';
import { parseBody, parseId, parseQuery } from '../http/validate.js';
import { RouteCreate, RouteListQuery, RouteUpdate, CallListQuery } from './model-routes.schema.js';
import { createRoute, deleteRoute, getRoute, listRoutes, updateRoute } from './model-routes.service.js';
import { listAudioRouteStatus } from '../audio/audio-route-status.js';
import { modelDirs } from '../audio/models.js';
import { listCalls } from './model-calls.js';

/** Model routes (admin, audio listing for any user) and the model-call log (admin) under /api/ai. */
export function aiRoutes({ db, config, requireUser, requireAdmin }: Deps): Router {
  const router = new Router({ prefix: '/ai' });

  // Before /routes/:id, which would otherwise take "audio" for an id. Says of each route whether it can run here.
  router.get('/routes/audio', requireUser, async (ctx) => {
    ctx.body = await listAudioRouteStatus(db, modelDirs(config.dataDir));
  });
  router.get('/routes', ...requireAdmin, async (ctx) => {
    ctx.body = await listRoutes(db, parseQuery(ctx, RouteListQuery).kind);
  });
  router.post('/routes', ...requireAdmin, async (ctx) => {
    const route = await createRoute(db, parseBody(ctx, RouteCreate));
    ctx.status = 201;
    ctx.body = route;
  });
  router.get('/routes/:id', ...requireAdmin, async (ctx) => {
    ctx.body = await getRoute(db, parseId(ctx.params.id, 'Model route'));
  });
  router.put('/routes/:id', ...requireAdmin, async (ctx) => {
    const id = parseId(ctx.params.id, 'Model route');
    ctx.body = await updateRoute(db, id, parseBody(ctx, RouteUpdate));
  });
  router.delete('/routes/:id', ...requireAdmin, async (ctx) => {
    ctx.body = await deleteRoute(db, parseId(ctx.params.id, 'Model route'));
  });

  router.get('/calls', ...requireAdmin, async (ctx) => {
    ctx.body = await listCalls(db, parseQuery(ctx, CallListQuery));
  });

  return router;
}
