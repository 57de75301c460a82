// The JSON request body, parsed as koa-body did it here (json only, 2 MB, any JSON value) without loading koa-body:
// koa-body pulls in formidable, co-body's form and text parsers and qs, some 130 ms of module loading at every start
// for parsers only multipart routes use (they load koa-body on their first request, see multipart.ts).
import { createRequire } from 'node:module';
import type { Context, Middleware } from 'koa';

type JsonParser = (ctx: Context, options: { encoding: string; limit: string; strict: boolean; returnRawBody: boolean }) => Promise<unknown>;
// co-body's JSON parser alone (raw-body with its limits and content-length check, inflation, prototype-poisoning
// refusal), the one koa-body calls; its index would also load the form parser and qs.
const parseJson = createRequire(import.meta.url)('co-body/lib/json.js') as JsonParser;

/** koa-body's default JSON content types. */
const JSON_TYPES = ['application/json', 'application/json-patch+json', 'application/vnd.api+json', 'application/csp-report', 'application/reports+json'];
const PARSED_METHODS = new Set(['POST', 'PUT', 'PATCH']);

export function jsonBody({ limit }: { limit: string }): Middleware {
  return async (ctx, next) => {
    if (PARSED_METHODS.has(ctx.method) && ctx.is(JSON_TYPES)) {
      ctx.request.body = (await parseJson(ctx, { encoding: 'utf-8', limit, strict: false, returnRawBody: false })) as typeof ctx.request.body;
    }
    return next();
  };
}
