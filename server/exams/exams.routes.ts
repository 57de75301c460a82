import Router from '@koa/router';
import type { Deps } from '../context.js';
import { bankRoutes } from './bank.routes.js';
import { takingRoutes } from './taking.routes.js';
import { adminRecordRoutes, recordRoutes } from './records.routes.js';
import { SubmitWriter } from './submit-writer.js';

/** Everything of spec 4.5 under /exam, plus the admin record views of 4.9 under /system/exam-records. */
export function examRoutes(deps: Deps): Router {
  const writer = new SubmitWriter(deps.db);
  deps.onClose(() => writer.idle());
  const router = new Router();
  for (const part of [bankRoutes(deps), takingRoutes(deps, writer), recordRoutes(deps), adminRecordRoutes(deps)]) router.use(part.routes());
  return router;
}
