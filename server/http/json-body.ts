// The JSON request body, parsed as koa-body did it here (json only, 2 MB, any JSON value) without loading koa-body:
// koa-body pulls in formidable, co-body's form and text parsers and qs, some 130 ms of module loading at every start
// for parsers only multipart routes use (they load koa-body on their first request, see multipart.ts).
//
// A body that cannot be read (malformed, too large, not decompressible) is not refused here but when a handler asks
// for it (parseBody), which is after the route's authentication and role checks: a request without a valid token
// gets its 401, and an employee on an admin endpoint its 403, whatever body they sent.
import { createRequire } from 'node:module';
import type { Context, Middleware } from 'koa';
import { AppError } from './errors.js';
import { toAppError } from './envelope.js';
import { ErrorCode } from '../../contract/envelope.js';

type JsonParser = (ctx: Context, options: { encoding: string; limit: string; strict: boolean; returnRawBody: boolean }) => Promise<unknown>;
// co-body's JSON parser alone (raw-body with its limits and content-length check, inflation, prototype-poisoning
// refusal), the one koa-body calls; its index would also load the form parser and qs.
const parseJson = createRequire(import.meta.url)('co-body/lib/json.js') as JsonParser;

/** koa-body's default JSON content types. */
const JSON_TYPES = ['application/json', 'application/json-patch+json', 'application/vnd.api+json', 'application/csp-report', 'application/reports+json'];
const PARSED_METHODS = new Set(['POST', 'PUT', 'PATCH']);

const unreadable = new WeakMap<Context, AppError>();

/** No API body nests this deep; far deeper ones overflowed the stack where they were written back as JSON. */
const MAX_DEPTH = 64;

/**
 * Why the parsed body is refused, or undefined: nested deeper than `max`, or a `constructor.prototype` key (the
 * parser refuses `__proto__` itself; merged into an object, either would reach Object's prototype).
 */
function refusedShape(value: unknown, max: number): string | undefined {
  const stack: [unknown, number][] = [[value, 0]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [item, depth] = next;
    if (item === null || typeof item !== 'object') continue;
    if (depth >= max) return `The request body is nested deeper than ${max} levels`;
    const constructorKey = Object.hasOwn(item, 'constructor') ? (item as { constructor: unknown }).constructor : undefined;
    if (constructorKey !== null && typeof constructorKey === 'object' && Object.hasOwn(constructorKey, 'prototype')) {
      return 'The request body contains a forbidden "constructor.prototype" key';
    }
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return undefined;
}

export function jsonBody({ limit }: { limit: string }): Middleware {
  return async (ctx, next) => {
    if (PARSED_METHODS.has(ctx.method) && ctx.is(JSON_TYPES)) {
      try {
        const body = await parseJson(ctx, { encoding: 'utf-8', limit, strict: false, returnRawBody: false });
        const refused = refusedShape(body, MAX_DEPTH);
        if (refused) throw new AppError(400, ErrorCode.invalidJson, refused);
        ctx.request.body = body as typeof ctx.request.body;
      } catch (err) {
        unreadable.set(ctx, toAppError(err));
      }
    }
    return next();
  };
}

const hasBody = (ctx: Context) => Number(ctx.get('content-length') || 0) > 0 || ctx.get('transfer-encoding') !== '';

/**
 * The JSON body for a handler: the error that kept it from being read, or a 415 for a body sent as something else
 * than JSON (it would otherwise read as empty, and each field be reported missing).
 */
export function jsonBodyOf(ctx: Context): unknown {
  const error = unreadable.get(ctx);
  if (error) throw error;
  if (ctx.request.body === undefined && hasBody(ctx) && !ctx.is(JSON_TYPES) && !ctx.is('multipart')) {
    throw new AppError(415, ErrorCode.unsupportedMediaType, `Send the request body as application/json (got ${ctx.get('content-type') || 'no Content-Type'})`);
  }
  return ctx.request.body;
}
