// Every request has an id: the caller's X-Request-Id when it is a sane one (a proxy's, a client's retry), else a new
// one. It is echoed in the response's X-Request-Id and carried by the request's own line and its unexpected errors
// (app.ts); at LOG_LEVEL=debug also by every other line logged while it runs, through AsyncLocalStorage. Only there:
// on Node 20 an AsyncLocalStorage in use hooks every promise of the process, about 9 % of a product page's throughput.
import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import { logContext, serverLog } from '../log/structured.js';

/** The router's template of the matched route (`/api/products/:id`), never the raw path; `unmatched` when none. */
export const routeOf = (ctx: Context): string => {
  const route = (ctx as { _matchedRoute?: string | RegExp })._matchedRoute;
  return route === undefined ? 'unmatched' : String(route);
};

const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The incoming id when it is 1-128 of [A-Za-z0-9._:-], else a fresh one. */
export const requestIdOf = (incoming: string | undefined): string => (incoming && SANE_ID.test(incoming) ? incoming : randomUUID());

declare module 'koa' {
  interface DefaultState {
    /** The request's id (X-Request-Id). */
    requestId?: string;
  }
}

/** First middleware: the id, its response header, and a line per finished request (method, route, status, time): failures at info, successes at debug. */
export async function requestId(ctx: Context, next: Next): Promise<void> {
  const id = requestIdOf(ctx.get('x-request-id') || undefined);
  ctx.set('X-Request-Id', id);
  ctx.state.requestId = id;
  const log = serverLog();
  if (!log.isLevelEnabled('info')) return next();
  const started = performance.now();
  try {
    await (log.isLevelEnabled('debug') ? logContext.run({ reqId: id }, next) : next());
  } finally {
    // A failure is worth a line at the default level; a success only at debug (a laptop's 5 MB would otherwise turn
    // over in minutes, and each line is a synchronous write). The path without its query: tokens travel there.
    const level = ctx.status >= 500 ? 'error' : ctx.status >= 400 ? 'info' : 'debug';
    if (log.isLevelEnabled(level)) {
      // LOG_LEVEL=debug: what the request carried, secrets redacted (server/log/structured.ts).
      if (log.isLevelEnabled('debug')) log.debug({ reqId: id, headers: ctx.headers, query: ctx.query, body: ctx.request.body }, 'request detail');
      log[level]({ reqId: id, method: ctx.method, path: ctx.path, route: routeOf(ctx), status: ctx.status, ms: Math.round(performance.now() - started) }, 'request');
    }
  }
}
