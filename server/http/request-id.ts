// Every request has an id: the caller's X-Request-Id when it is a sane one (a proxy's, a client's retry), else a new
// one. It is echoed in the response's X-Request-Id and carried by every log line of the request: the child logger on
// ctx.state.log, and through AsyncLocalStorage for code that logs without the request at hand (console.*).
import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import { logContext, serverLog, type StructuredLogger } from '../log/structured.js';

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
    /** The server log with this request's id on each line. */
    log?: StructuredLogger;
  }
}

/** First middleware: the id, its response header, and a line per finished request (method, route, status, time): failures at info, successes at debug. */
export async function requestId(ctx: Context, next: Next): Promise<void> {
  const id = requestIdOf(ctx.get('x-request-id') || undefined);
  ctx.set('X-Request-Id', id);
  ctx.state.requestId = id;
  const root = serverLog();
  if (!root.isLevelEnabled('info')) return next();
  const log = root.child({ reqId: id });
  ctx.state.log = log;
  const started = performance.now();
  try {
    await logContext.run({ reqId: id }, next);
  } finally {
    // The path without its query: signed URLs and tokens travel there.
    // LOG_LEVEL=debug: what the request carried, secrets redacted (server/log/structured.ts).
    if (log.isLevelEnabled('debug')) log.debug({ headers: ctx.headers, query: ctx.query, body: ctx.request.body }, 'request detail');
    // A failure is worth a line at the default level; a success only at debug (a laptop's 5 MB would otherwise turn
    // over in minutes, and each line is a synchronous write).
    const level = ctx.status >= 500 ? 'error' : ctx.status >= 400 ? 'info' : 'debug';
    if (log.isLevelEnabled(level)) log[level]({ method: ctx.method, path: ctx.path, route: routeOf(ctx), status: ctx.status, ms: Math.round(performance.now() - started) }, 'request');
  }
}
