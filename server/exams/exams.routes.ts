import Router from '@koa/router';
import type { Deps } from '../context.js';
import { bankRoutes } from './bank.routes.js';
import { takingRoutes } from './taking.routes.js';
import { adminRecordRoutes, examStatsRoutes, recordRoutes } from './records.routes.js';
import { submitPipeline } from './submit-pipeline.js';

/** Everything of spec 4.5 under /exam, plus the admin record views of 4.9 under /system/exam-records. */
export function examRoutes(deps: Deps): Router {
  const pipeline = submitPipeline(deps.db);
  deps.onClose(() => pipeline.idle());
  const router = new Router();
  for (const part of [bankRoutes(deps), takingRoutes(deps, pipeline), recordRoutes(deps), adminRecordRoutes(deps), examStatsRoutes(deps)]) router.use(part.routes());
  return router;
}
