import Router from '@koa/router';
import type { Health } from '../../contract/envelope.js';
import { API_VERSION, SERVICE_NAME } from '../config.js';
import { sendRaw } from '../http/envelope.js';

export function healthRoutes(): Router {
  const router = new Router();
  router.get('/health', (ctx) => {
    sendRaw(ctx);
    const body: Health = { status: 'ok', service: SERVICE_NAME, version: API_VERSION };
    ctx.body = body;
  });
  return router;
}
