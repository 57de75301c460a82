// GET /api/openapi.json: an OpenAPI 3.1 document of every route the routers answer, generated from what the routes
// are built of rather than written by hand. A route's guards give its auth (requireUser, requireAdmin's role check,
// the sync device credential: marked with markAuth); its zod schemas come from a `documented({ body, query })`
// marker placed in the route's middleware (a no-op at request time); every answer is the envelope, its error codes
// those of contract/envelope.ts (domains add dotted codes of their own).
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z, type ZodType } from 'zod';
import { API_VERSION, ErrorCode } from '../../contract/envelope.js';

export type Auth = 'user' | 'admin' | 'device';

export interface RouteSchemas {
  /** The JSON body parseBody validates. */
  body?: ZodType;
  /** The query parseQuery validates (an object schema). */
  query?: ZodType;
  /** What `data` holds in a success. */
  response?: ZodType;
  summary?: string;
}

const authOf = new WeakMap<object, Auth>();
const schemasOf = new WeakMap<object, RouteSchemas>();

/** Tells the document that a guard middleware requires this kind of caller. */
export function markAuth<T extends object>(guard: T, auth: Auth): T {
  authOf.set(guard, auth);
  return guard;
}

/** A route's schemas for the document: put it in the route's middleware, before the handler. Does nothing at run time. */
export function documented(schemas: RouteSchemas): Middleware {
  const marker: Middleware = (_ctx, next) => next();
  schemasOf.set(marker, schemas);
  return marker;
}

/** One route of the mounted routers, with its middleware (guards and markers are found there). */
export interface RouteLayer {
  path: string;
  methods: string[];
  paramNames: string[];
  stack: object[];
}

export const routeLayers = (routers: Router[]): RouteLayer[] =>
  routers.flatMap((router) =>
    router.stack
      .filter((layer) => layer.methods.length)
      .map((layer) => ({
        path: String(layer.path),
        methods: layer.methods.filter((m) => m !== 'HEAD'),
        paramNames: layer.paramNames.map((p) => String(p.name)),
        stack: layer.stack as object[],
      })),
  );

/** `/api/products/:id` → `/api/products/{id}` (a parameter's own pattern, `:id(\\d+)`, dropped). */
export const openApiPath = (path: string): string => path.replace(/:(\w+)(\([^)]*\))?/g, '{$1}');

const ErrorEnvelope = z
  .object({
    data: z.null(),
    error: z.string().meta({ description: `A stable code: ${Object.values(ErrorCode).join(', ')}, or a domain's dotted code (e.g. sync.not_enrolled)`, examples: Object.values(ErrorCode) }),
    message: z.string(),
    details: z.unknown().optional(),
  })
  .meta({ id: 'ErrorEnvelope' });

const envelopeOf = (data: ZodType) => z.object({ data, error: z.null(), message: z.literal('success') });
const AnyEnvelope = envelopeOf(z.unknown()).meta({ id: 'Envelope' });

const METHODS = new Set(['get', 'post', 'put', 'delete', 'patch']);

function routeAuth(layer: RouteLayer): Auth | undefined {
  const found = layer.stack.map((fn) => authOf.get(fn)).filter((auth): auth is Auth => !!auth);
  return found.includes('admin') ? 'admin' : found[0];
}

function registerRoute(registry: OpenAPIRegistry, layer: RouteLayer, method: string, schemas: RouteSchemas | undefined): void {
  const auth = routeAuth(layer);
  const error = (description: string) => ({ description, content: { 'application/json': { schema: ErrorEnvelope } } });
  const responses: Record<string, { description: string; content?: Record<string, { schema: ZodType }> }> = {
    200: { description: 'Success, in the envelope', content: { 'application/json': { schema: schemas?.response ? envelopeOf(schemas.response) : AnyEnvelope } } },
    400: error('Bad input: validation_failed (details name the fields), invalid_json, bad_request'),
    404: error('not_found'),
    500: error('internal_error'),
  };
  if (auth) responses[401] = error('unauthorized: no or an invalid credential');
  if (auth === 'admin') responses[403] = error('forbidden: for administrators');
  const params = layer.paramNames.length ? z.object(Object.fromEntries(layer.paramNames.map((name) => [name, z.string()]))) : undefined;
  const query = schemas?.query instanceof z.ZodObject ? schemas.query : undefined;
  registry.registerPath({
    method: method as 'get',
    path: openApiPath(layer.path),
    summary: schemas?.summary,
    tags: [layer.path.split('/')[2] ?? 'api'],
    security: auth === 'device' ? [{ device: [] }] : auth ? [{ bearer: [] }] : [],
    'x-auth': auth ?? 'none',
    request: {
      ...(params ? { params } : {}),
      ...(query ? { query } : {}),
      ...(schemas?.body ? { body: { content: { 'application/json': { schema: schemas.body } } } } : {}),
    },
    responses,
  });
}

/** Whether zod-to-openapi can describe these schemas (a transform it cannot follow makes it throw). */
function describable(layer: RouteLayer, method: string, schemas: RouteSchemas): boolean {
  try {
    const trial = new OpenAPIRegistry();
    registerRoute(trial, layer, method, schemas);
    new OpenApiGeneratorV31(trial.definitions).generateDocument({ openapi: '3.1.0', info: { title: 'trial', version: '0' } });
    return true;
  } catch {
    return false;
  }
}

export function openApiDocument(layers: RouteLayer[]): object {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'POST /api/auth/login answers the token' });
  registry.registerComponent('securitySchemes', 'device', { type: 'apiKey', in: 'header', name: 'Authorization', description: '`Device <credential>`: an enrolled branch laptop (docs/sync.md)' });
  registry.registerComponent('securitySchemes', 'metrics', { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN' });
  for (const layer of layers) {
    const found = layer.stack.map((fn) => schemasOf.get(fn)).find((schemas) => schemas);
    for (const method of layer.methods.map((m) => m.toLowerCase()).filter((m) => METHODS.has(m))) {
      registerRoute(registry, layer, method, found && describable(layer, method, found) ? found : undefined);
    }
  }
  registry.registerPath({
    method: 'get',
    path: '/metrics',
    summary: 'Prometheus metrics (only when METRICS_TOKEN is set; 404 otherwise)',
    tags: ['operations'],
    security: [{ metrics: [] }],
    responses: { 200: { description: 'Prometheus text format', content: { 'text/plain': { schema: z.string() } } }, 404: { description: 'METRICS_TOKEN unset, or another token' } },
  });
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: 'Trainbench API', version: API_VERSION, description: 'Every answer but health, files and streams is the envelope {data, error, message}.' },
    servers: [{ url: '/' }],
  });
}
