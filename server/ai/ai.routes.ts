import Router from '@koa/router';
import { z } from 'zod';
import type { Deps } from '../context.js';
import { parseBody, parseId, parseQuery } from '../http/validate.js';
import { RouteCreate, RouteListQuery, RouteUpdate, CallListQuery } from './model-routes.schema.js';
import { createRoute, deleteRoute, getRoute, listRoutes, updateRoute } from './model-routes.service.js';
import { listAudioRouteStatus } from '../audio/audio-route-status.js';
import { modelDirs } from '../audio/models.js';
import { ModelStore } from '../audio/model-store.js';
import { listCalls } from './model-calls.js';
import { testRoute } from './route-test.js';
import { mediaStore } from '../media/media.store.js';
import { mountModelShelf } from '../audio/model-shelf.routes.js';
import { chatShelf, CHAT_MODEL_NAME } from './local/chat-models.js';
import { useModelDirs } from './local/local-completion.js';
import { withLocalStatus } from './local/local-route-status.js';
import { localLlm } from './local/llm-runtime.js';
import { documented } from '../http/openapi.js';

/**
 * Model routes (admin, audio listing for any user), the local chat model files (admin) and the model-call log
 * (admin) under /api/ai.
 */
export function aiRoutes({ db, config, storage, requireUser, requireAdmin, onClose }: Deps): Router {
  const router = new Router({ prefix: '/ai' });
  const dirs = modelDirs(config.dataDir, new ModelStore(db, storage, config.dataDir));
  useModelDirs(db, dirs);
  onClose(() => localLlm.close());

  // Before /routes/:id, which would otherwise take "audio" for an id. Says of each route whether it can run here.
  router.get('/routes/audio', requireUser, async (ctx) => {
    ctx.body = await listAudioRouteStatus(db, dirs);
  });
  router.get('/routes', ...requireAdmin, documented({ query: RouteListQuery }), async (ctx) => {
    ctx.body = await withLocalStatus(db, dirs, await listRoutes(db, parseQuery(ctx, RouteListQuery)));
  });
  router.post('/routes', ...requireAdmin, documented({ body: RouteCreate }), async (ctx) => {
    const route = await createRoute(db, parseBody(ctx, RouteCreate));
    ctx.status = 201;
    ctx.body = route;
  });
  router.get('/routes/:id', ...requireAdmin, async (ctx) => {
    ctx.body = await getRoute(db, parseId(ctx.params.id, 'Model route'));
  });
  router.put('/routes/:id', ...requireAdmin, documented({ body: RouteUpdate }), async (ctx) => {
    const id = parseId(ctx.params.id, 'Model route');
    ctx.body = await updateRoute(db, id, parseBody(ctx, RouteUpdate));
  });
  router.post('/routes/:id/test', ...requireAdmin, async (ctx) => {
    ctx.body = await testRoute(db, parseId(ctx.params.id, 'Model route'));
  });
  router.delete('/routes/:id', ...requireAdmin, async (ctx) => {
    ctx.body = await deleteRoute(db, parseId(ctx.params.id, 'Model route'));
  });

  mountModelShelf(router, { db, media: mediaStore(storage, config.dataDir), dirs, requireAdmin }, chatShelf, z.string().regex(CHAT_MODEL_NAME, 'must be a model file name such as qwen2.5-1.5b-instruct-q4_k_m.gguf'));

  router.get('/calls', ...requireAdmin, documented({ query: CallListQuery }), async (ctx) => {
    ctx.body = await listCalls(db, parseQuery(ctx, CallListQuery));
  });

  return router;
}
