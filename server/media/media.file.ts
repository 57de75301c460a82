// Serving a stored file with HTTP Range support (RFC 9110 section 14), so that video and audio players can seek.
import fs from 'node:fs';
import type { Context } from 'koa';
import { MediaErrorCode } from '../../contract/media.js';
import { sendRaw } from '../http/envelope.js';
import { AppError, notFound } from '../http/errors.js';

export type ByteRange = { kind: 'whole' } | { kind: 'part'; start: number; end: number } | { kind: 'unsatisfiable' };

/**
 * One `bytes=` range, against a file of `size` bytes. A header that is absent, malformed, in another unit or asks
 * for several ranges is ignored (the whole file is sent, as the RFC allows); a range starting past the end is
 * unsatisfiable.
 */
export function parseRange(header: string | undefined, size: number): ByteRange {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return { kind: 'whole' };
  const [, first, last] = match as unknown as [string, string, string];
  if (first === '') {
    const suffix = Number(last);
    return suffix === 0 || size === 0 ? { kind: 'unsatisfiable' } : { kind: 'part', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return { kind: 'whole' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'part', start, end: last === '' ? size - 1 : Math.min(Number(last), size - 1) };
}

/** `inline` with an ASCII fallback name and the exact UTF-8 one (RFC 6266); nothing from the name can break the header. */
function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `inline; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

export interface StoredFile {
  path: string;
  mimeType: string;
  filename: string;
  /** Stable for the file's whole life (files never change once stored). */
  etag: string;
}

export async function sendStoredFile(ctx: Context, file: StoredFile): Promise<void> {
  const stat = await fs.promises.stat(file.path).catch(() => null);
  if (!stat?.isFile()) throw notFound('Media file');
  const range = parseRange(ctx.get('range') || undefined, stat.size);
  ctx.set('Accept-Ranges', 'bytes');
  if (range.kind === 'unsatisfiable') {
    ctx.set('Content-Range', `bytes */${stat.size}`);
    throw new AppError(416, MediaErrorCode.rangeNotSatisfiable, `The range ${ctx.get('range')} is outside the file's ${stat.size} bytes`);
  }
  sendRaw(ctx);
  ctx.set({
    'Content-Disposition': contentDisposition(file.filename),
    'Cache-Control': 'private, max-age=3600',
    ETag: `"${file.etag}"`,
    'X-Content-Type-Options': 'nosniff',
    // An uploaded HTML or SVG file opened from this origin must not run scripts.
    'Content-Security-Policy': 'sandbox',
  });
  ctx.type = file.mimeType;
  if (range.kind === 'part') {
    ctx.status = 206;
    ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${stat.size}`);
    ctx.length = range.end - range.start + 1;
    ctx.body = fs.createReadStream(file.path, { start: range.start, end: range.end });
  } else {
    ctx.status = 200;
    ctx.length = stat.size;
    ctx.body = stat.size ? fs.createReadStream(file.path) : '';
  }
}
