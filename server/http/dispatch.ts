import type Router from '@koa/router';
import compose from 'koa-compose';
import type { Middleware } from 'koa';

/** The first segment after the prefix ('/api/products/:id' → 'products'); undefined when it is not a literal. */
function firstSegment(path: string | RegExp, prefix: string): string | undefined {
  if (typeof path !== 'string' || !path.startsWith(prefix + '/')) return undefined;
  const segment = path.slice(prefix.length + 1).split('/')[0] ?? '';
  return /^[\w.-]+$/.test(segment) ? segment : undefined;
}

/**
 * Runs only the routers that have routes under the request's first path segment. Mounting every domain in one
 * router makes each request test every route's pattern (~150 regexes); this keeps that to the few routes of one
 * domain. Routers whose paths do not start with a literal segment run for every request.
 */
export function dispatchByFirstSegment(routers: Router[], prefix: string): Middleware {
  const entries = routers.map((router) => ({
    middleware: [router.routes(), router.allowedMethods()] as Middleware[],
    segments: new Set(router.stack.map((layer) => firstSegment(layer.path, prefix))),
  }));
  const anywhere = entries.filter((e) => e.segments.has(undefined));
  const bySegment = new Map<string, Middleware>();
  for (const segment of new Set(entries.flatMap((e) => [...e.segments]))) {
    if (segment === undefined) continue;
    const chosen = entries.filter((e) => e.segments.has(segment) || anywhere.includes(e));
    bySegment.set(segment, compose(chosen.flatMap((e) => e.middleware)));
  }
  const fallback = compose(anywhere.flatMap((e) => e.middleware));
  return (ctx, next) => {
    const handler = ctx.path.startsWith(prefix + '/') ? (bySegment.get(ctx.path.slice(prefix.length + 1).split('/')[0]!) ?? fallback) : fallback;
    return handler(ctx, next);
  };
}
