import Router from '@koa/router';
import type { Deps } from '../context.js';

export function workbenchRoutes(_deps: Deps): Router {
  return new Router();
}
