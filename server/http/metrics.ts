// GET /metrics (Prometheus text format) and the timing of every request by its route template. Served only when
// METRICS_TOKEN is set and only to `Authorization: Bearer <METRICS_TOKEN>`: to anyone else it does not exist (404).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, Middleware, Next } from 'koa';
import type { AppMetrics } from '../metrics/metrics.js';
import { routeOf } from './request-id.js';
import { sendRaw } from './envelope.js';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Compares in constant time (digests of equal length), so the answer's timing tells nothing of the token. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer (.+)$/.exec(header ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(given), digest(token));
}

/** Outermost: the time to the answer, labelled method, route template (`unmatched` when none) and final status. */
export function requestTiming(metrics: AppMetrics): Middleware {
  return async (ctx: Context, next: Next) => {
    const end = metrics.httpDuration.startTimer();
    try {
      await next();
    } finally {
      end({ method: ctx.method, route: routeOf(ctx), status: String(ctx.status) });
    }
  };
}

/** Answers GET /metrics; every other request passes on (a 404 in the envelope when the token is unset or wrong). */
export function metricsEndpoint(metrics: AppMetrics, token: string | undefined): Middleware {
  return async (ctx: Context, next: Next) => {
    if (ctx.path !== '/metrics' || !token || (ctx.method !== 'GET' && ctx.method !== 'HEAD') || !bearerMatches(ctx.get('authorization'), token)) return next();
    const body = await metrics.registry.metrics();
    sendRaw(ctx);
    ctx.set('Cache-Control', 'no-store');
    ctx.type = metrics.registry.contentType;
    ctx.body = body;
  };
}
