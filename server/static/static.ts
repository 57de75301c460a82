// Serves the built renderer (renderer/dist) on the server's own origin, so the desktop window and a browser
// load the UI from the same place that answers /api.
import fs from 'node:fs';
import path from 'node:path';
import type { Context, Middleware, Next } from 'koa';
import mime from 'mime-types';
import { projectRoot } from '../config.js';
import { sendRaw } from '../http/envelope.js';

export const defaultRendererDir = () => path.join(projectRoot(), 'renderer', 'dist');

/**
 * The renderer's pages may load scripts, styles, fonts, images and media only from this origin and talk only
 * to it. Inline styles are allowed because React sets style attributes; inline scripts are not.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Vite puts content-hashed files here: they never change under the same name. */
const HASHED_ASSETS = '/assets/';

const isApiPath = (p: string) => p === '/api' || p.startsWith('/api/');

/**
 * The file under `root` that a URL path names, or null when the path is not a plain relative path inside it
 * (bad escapes, NUL, backslashes, dot segments or hidden files anywhere in it).
 */
export function resolveStaticPath(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const segments = decoded.split('/').filter(Boolean);
  if (segments.some((s) => s.startsWith('.'))) return null;
  const file = path.resolve(root, ...segments);
  return file.startsWith(root + path.sep) ? file : null;
}

/**
 * A request for a page of the single-page app rather than a file: a path without an extension from a client
 * that names text/html, as browsers do when navigating (scripts and asset loaders send a wildcard).
 */
const wantsPage = (ctx: Context) => !path.posix.extname(ctx.path) && /(^|[\s,])text\/html([\s,;]|$)/i.test(ctx.get('Accept'));

async function regularFile(file: string): Promise<fs.Stats | null> {
  try {
    // lstat: a symbolic link is not served, so nothing outside the build can be reached through one.
    const stats = await fs.promises.lstat(file);
    return stats.isFile() ? stats : null;
  } catch {
    return null;
  }
}

function sendFile(ctx: Context, file: string, stats: fs.Stats, urlPath: string): void {
  sendRaw(ctx);
  const isHtml = path.extname(file) === '.html';
  ctx.status = 200;
  ctx.type = mime.contentType(path.extname(file)) || 'application/octet-stream';
  ctx.lastModified = stats.mtime;
  ctx.etag = `W/"${stats.size.toString(16)}-${stats.mtimeMs.toString(16)}"`;
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Cache-Control', urlPath.startsWith(HASHED_ASSETS) ? 'public, max-age=31536000, immutable' : 'no-cache');
  if (isHtml) {
    ctx.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('Referrer-Policy', 'no-referrer');
  }
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  ctx.length = stats.size;
  // Koa answers HEAD with the headers alone; a body would only open the file for nothing.
  if (ctx.method === 'GET') ctx.body = fs.createReadStream(file);
}

/**
 * Koa middleware serving the files of `root` (default renderer/dist) for GET and HEAD outside /api, with
 * index.html for `/` and for page paths the app routes itself. Anything else falls through (to the 404
 * envelope). Does nothing when the renderer has not been built.
 */
export function serveRenderer(root: string = defaultRendererDir()): Middleware {
  const base = path.resolve(root);
  const index = path.join(base, 'index.html');
  return async (ctx: Context, next: Next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || isApiPath(ctx.path)) return next();
    const file = ctx.path === '/' ? index : resolveStaticPath(base, ctx.path);
    const stats = file && (await regularFile(file));
    if (file && stats) return sendFile(ctx, file, stats, ctx.path);
    const indexStats = wantsPage(ctx) ? await regularFile(index) : null;
    if (indexStats) return sendFile(ctx, index, indexStats, '/index.html');
    return next();
  };
}
