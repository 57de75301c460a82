import Router from '@koa/router';
import type { Deps } from '../context.js';

export function learningRoutes(_deps: Deps): Router {
  return new Router();
}
