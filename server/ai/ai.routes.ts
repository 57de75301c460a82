import Router from '@koa/router';
import type { Deps } from '../context.js';

export function aiRoutes(_deps: Deps): Router {
  return new Router();
}
