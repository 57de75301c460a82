// GET /api/openapi.json and the reference page GET /api/docs: Swagger UI from the swagger-ui-dist package the app
// ships (node_modules, inside the packaged app's archive), never a CDN: it works offline. The page's own initializer
// is a file too (the page allows no inline script).
import fs from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import Router from '@koa/router';
import type { Context } from 'koa';
import { projectRoot } from '../config.js';
import { sendRaw } from './envelope.js';
import { notFound } from './errors.js';
import { openApiDocument, type RouteLayer } from './openapi.js';

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'index.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

const PAGE = `<!DOCTYPE html>
<html lang="zh-CN">
  <head>
    <meta charset="UTF-8">
    <title>Trainbench API</title>
    <link rel="stylesheet" type="text/css" href="/api/docs/swagger-ui.css" />
    <link rel="stylesheet" type="text/css" href="/api/docs/index.css" />
    <link rel="icon" type="image/png" href="/api/docs/favicon-32x32.png" sizes="32x32" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/api/docs/swagger-ui-bundle.js" charset="UTF-8"></script>
    <script src="/api/docs/swagger-ui-standalone-preset.js" charset="UTF-8"></script>
    <script src="/api/docs/initializer.js" charset="UTF-8"></script>
  </body>
</html>
`;

const INITIALIZER = `window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: '/api/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout',
  });
};
`;

/** Swagger UI needs inline styles and data: images; scripts and requests stay on this origin. */
const PAGE_POLICY = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

const assetsDir = (): string => path.dirname(createRequire(path.join(projectRoot(), 'package.json')).resolve('swagger-ui-dist/package.json'));

function raw(ctx: Context, type: string, body: string | Buffer, cache = 'no-cache'): void {
  sendRaw(ctx);
  ctx.type = type;
  ctx.set('Cache-Control', cache);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = body;
}

/** The document is built at the first request (every router is mounted by then) and kept. */
export function apiDocsRoutes(layers: () => RouteLayer[]): Router {
  const router = new Router();
  let document: string | undefined;
  router.get('/openapi.json', (ctx) => {
    document ??= JSON.stringify(openApiDocument(layers()));
    raw(ctx, 'application/json; charset=utf-8', document);
  });
  router.get('/docs', (ctx) => {
    ctx.set('Content-Security-Policy', PAGE_POLICY);
    raw(ctx, 'text/html; charset=utf-8', PAGE);
  });
  router.get('/docs/:file', async (ctx) => {
    const file = ctx.params.file!;
    if (file === 'initializer.js') return raw(ctx, 'text/javascript; charset=utf-8', INITIALIZER);
    const type = ASSETS[file];
    if (!type) throw notFound('File');
    raw(ctx, type, await fs.readFile(path.join(assetsDir(), file)), 'public, max-age=3600');
  });
  return router;
}
