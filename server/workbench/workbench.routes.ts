import Router from '@koa/router';
import type { Deps } from '../context.js';
import { specialistRoutes } from './specialists.routes.js';
import { definitionRoutes } from './definitions.routes.js';
import { actionRoutes } from './actions.routes.js';
import { workerRoutes } from './worker.routes.js';
import { noteRoutes } from './notes.routes.js';

/** The digital-worker workbench: /api/specialists, /api/skills, /api/xapps, /api/actions, /api/worker/*, /api/notes. */
export function workbenchRoutes(deps: Deps): Router {
  const router = new Router();
  const parts = [specialistRoutes(deps), definitionRoutes(deps, 'skill'), definitionRoutes(deps, 'xapp'), actionRoutes(deps), workerRoutes(deps), noteRoutes(deps)];
  for (const part of parts) router.use(part.routes());
  return router;
}
