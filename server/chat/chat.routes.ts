import Router from '@koa/router';
import type { Deps } from '../context.js';

export function chatRoutes(_deps: Deps): Router {
  return new Router();
}
