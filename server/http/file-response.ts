// Every file the API sends (media, recordings, sync files, exports, packs, certificates) goes out here: one Range
// implementation (range-parser), one Content-Disposition (Koa's ctx.attachment: RFC 6266, any language through
// filename*), and conditional requests (ETag with If-None-Match → 304, If-Range). The bytes come from a stored
// object (local or S3, streamed through this node), a file of the request, or a buffer.
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { Context } from 'koa';
import rangeParser from 'range-parser';
import { sendRaw } from './envelope.js';
import { AppError, notFound } from './errors.js';
import { safeFileName } from './plain-text.js';
import { isNotFound, type ByteRange, type Storage } from '../storage/index.js';
import { MediaErrorCode } from '../../contract/media.js';

/** Where a response's bytes are. `open` is called at most once, and not for HEAD, 304 or 416. */
export interface FileSource {
  size: number;
  /** The object's own ETag, used when the caller gives none. */
  etag?: string;
  mtime?: Date;
  open(range?: ByteRange): Promise<Readable> | Readable;
}

export interface SendFileOptions {
  /** The name the client sees (any language); sent as RFC 6266 filename and filename*. */
  filename: string;
  mimeType: string;
  /** `inline` (shown in the browser: media, recordings) or `attachment` (saved: exports, packs); default inline. */
  disposition?: 'inline' | 'attachment';
  /** A stable identifier of these exact bytes (a storage key, a sha256); defaults to the source's ETag. */
  etag?: string;
  cacheControl?: string;
  /** Extra headers (e.g. X-Content-SHA256). */
  headers?: Record<string, string>;
  /** Serve byte ranges (default true). */
  ranges?: boolean;
  /** The error code of a 416: media.range_not_satisfiable unless the domain has its own (sync.range_not_satisfiable). */
  rangeErrorCode?: string;
}

/** A stored object as a source; a missing object is the given 404. */
export async function objectSource(storage: Storage, key: string, missing: () => AppError = () => notFound('File')): Promise<FileSource> {
  const info = await storage.stat(key);
  if (!info) throw missing();
  return {
    size: info.size,
    etag: info.etag,
    mtime: info.mtime,
    open: (range) =>
      storage.get(key, range).catch((err: unknown) => {
        throw isNotFound(err) ? missing() : err;
      }),
  };
}

/** A file on this node's disk (a pack built for this request, a generated export). */
export async function localFileSource(file: string): Promise<FileSource> {
  const stat = await fs.stat(file);
  return { size: stat.size, mtime: stat.mtime, open: (range) => createReadStream(file, { highWaterMark: 1024 * 1024, ...(range ?? {}) }) };
}

export const bufferSource = (bytes: Buffer): FileSource => ({
  size: bytes.length,
  open: (range) => Readable.from(range ? [bytes.subarray(range.start, range.end + 1)] : [bytes]),
});

const quoted = (etag: string) => (/^(W\/)?".*"$/.test(etag) ? etag : `"${etag}"`);
const strong = (etag: string) => etag.replace(/^W\//, '');

/**
 * The one range this response serves, or 'whole', or 'unsatisfiable'. A header that is malformed, in another unit or
 * asks for several ranges is ignored (RFC 9110 allows sending the whole file); so is Range when If-Range names
 * other bytes than these.
 */
function wantedRange(ctx: Context, size: number, etag: string | undefined, mtime: Date | undefined): ByteRange | 'whole' | 'unsatisfiable' {
  const header = ctx.get('range');
  if (!header) return 'whole';
  const ifRange = ctx.get('if-range');
  if (ifRange) {
    const isEtag = ifRange.startsWith('"') || ifRange.startsWith('W/');
    const matches = isEtag ? !!etag && !ifRange.startsWith('W/') && strong(quoted(etag)) === ifRange : !!mtime && Date.parse(ifRange) >= Math.floor(mtime.getTime() / 1000) * 1000;
    if (!matches) return 'whole';
  }
  const parsed = rangeParser(size, header, { combine: true });
  // range-parser says -1 both for ranges past the end and for ones that end before they start (`bytes=9-3`): the
  // latter are invalid rather than unsatisfiable, and ignored.
  if (parsed === -1) return rangeParser(Number.MAX_SAFE_INTEGER, header) === -1 ? 'whole' : 'unsatisfiable';
  if (parsed === -2 || parsed.type !== 'bytes' || parsed.length !== 1) return 'whole';
  return { start: parsed[0]!.start, end: parsed[0]!.end };
}

type Described = Pick<SendFileOptions, 'filename' | 'mimeType' | 'disposition' | 'cacheControl' | 'headers'>;

function fileHeaders(ctx: Context, options: Described): void {
  sendRaw(ctx);
  // Content-Disposition with an ASCII filename and, for any other name, filename* in UTF-8 (RFC 6266); it also sets
  // a type from the name, replaced below by the one given.
  ctx.attachment(safeFileName(options.filename), { type: options.disposition ?? 'inline' });
  ctx.set({
    'Cache-Control': options.cacheControl ?? 'private, max-age=3600',
    'X-Content-Type-Options': 'nosniff',
    // An uploaded HTML or SVG file opened from this origin must not run scripts.
    'Content-Security-Policy': 'sandbox',
    ...options.headers,
  });
  ctx.type = options.mimeType;
  ctx.status = 200;
}

/** A download made for this request whose length is not known in advance (an Excel export streamed as written). */
export function sendDownload(ctx: Context, body: Readable | Buffer, options: Omit<Described, 'disposition'>): void {
  fileHeaders(ctx, { cacheControl: 'no-store', ...options, disposition: 'attachment' });
  ctx.body = body;
}

/**
 * RFC 9110 13.1.2-3, as an origin server evaluates them. Not Koa's ctx.fresh: that treats a request's
 * `Cache-Control: no-cache` as "send it all", and fetch() adds that header to every conditional request.
 */
function notModified(ctx: Context, etag: string | undefined, mtime: Date | undefined): boolean {
  const ifNoneMatch = ctx.get('if-none-match');
  if (ifNoneMatch) {
    if (!etag) return false;
    const ours = strong(quoted(etag));
    return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((tag) => strong(tag.trim()) === ours);
  }
  const since = Date.parse(ctx.get('if-modified-since'));
  return !!mtime && !Number.isNaN(since) && Math.floor(mtime.getTime() / 1000) * 1000 <= since;
}

export async function sendFile(ctx: Context, source: FileSource, options: SendFileOptions): Promise<void> {
  const etag = options.etag ?? source.etag;
  const ranges = options.ranges ?? true;
  const range = ranges ? wantedRange(ctx, source.size, etag, source.mtime) : 'whole';
  if (ranges) ctx.set('Accept-Ranges', 'bytes');
  if (range === 'unsatisfiable') {
    ctx.set('Content-Range', `bytes */${source.size}`);
    throw new AppError(416, options.rangeErrorCode ?? MediaErrorCode.rangeNotSatisfiable, `The range ${ctx.get('range')} is outside the file's ${source.size} bytes`, { size: source.size });
  }
  fileHeaders(ctx, options);
  if (etag) ctx.set('ETag', quoted(etag));
  if (source.mtime) ctx.lastModified = source.mtime;
  // If-None-Match (or If-Modified-Since) naming these bytes: 304 without a body.
  if ((ctx.method === 'GET' || ctx.method === 'HEAD') && notModified(ctx, etag, source.mtime)) {
    ctx.status = 304;
    ctx.body = null;
    return;
  }
  if (range !== 'whole') {
    ctx.status = 206;
    ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${source.size}`);
  }
  const length = range === 'whole' ? source.size : range.end - range.start + 1;
  if (ctx.method === 'HEAD' || length === 0) {
    // No stream to open: Koa sends the headers alone for HEAD (an empty string, not null, which would make it a 204).
    ctx.body = '';
    ctx.length = length;
    return;
  }
  ctx.body = await source.open(range === 'whole' ? undefined : range);
  ctx.length = length;
}
