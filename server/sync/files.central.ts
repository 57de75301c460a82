// Central: media files for branches, by byte range, with their sha256.
import crypto from 'node:crypto';
import fs from 'node:fs';
import type { Context } from 'koa';
import type { Db } from '../db/knex.js';
import { AppError, notFound } from '../http/errors.js';
import { SyncErrorCode } from '../../contract/sync.js';
import { mediaDirs, storedFilePath } from '../media/media.storage.js';
import { sendRaw } from '../http/envelope.js';

export async function sha256Of(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Approved media whose sha256 was never computed (media from before sync) get it now, once. */
export async function fillMissingHashes(db: Db, dataDir: string, rows: Record<string, unknown>[]): Promise<Record<string, unknown>[]> {
  const dirs = mediaDirs(dataDir);
  return Promise.all(
    rows.map(async (row) => {
      if (row.sha256 || row.status !== 'approved') return row;
      const sha256 = await sha256Of(storedFilePath(dirs, String(row.storage_key))).catch(() => null);
      if (!sha256) return { ...row, status: 'missing' };
      await db('media_files').where({ id: row.id }).update({ sha256 });
      return { ...row, sha256 };
    }),
  );
}

/** `bytes=<start>-` or `bytes=<start>-<end>` (one range); undefined without a Range header. */
function parseRange(header: string, size: number): { start: number; end: number } | undefined {
  if (!header) return undefined;
  const match = /^bytes=(\d+)-(\d*)$/.exec(header.trim());
  const start = match ? Number(match[1]) : NaN;
  const end = match?.[2] ? Math.min(Number(match[2]), size - 1) : size - 1;
  if (!match || start >= size || end < start) {
    throw new AppError(416, SyncErrorCode.rangeNotSatisfiable, `The range does not lie within the file's ${size} bytes`, { size });
  }
  return { start, end };
}

/** Streams an approved media file (or the asked range of it); 404 for anything that is not approved. */
export async function serveFile(ctx: Context, db: Db, dataDir: string, gid: string): Promise<void> {
  const row = (await db('media_files').where({ gid, status: 'approved' }).first()) as Record<string, unknown> | undefined;
  if (!row) throw notFound('File');
  const [withHash] = await fillMissingHashes(db, dataDir, [row]);
  if (withHash!.status !== 'approved') throw notFound('File');
  const file = storedFilePath(mediaDirs(dataDir), String(row.storage_key));
  const size = (await fs.promises.stat(file)).size;
  const range = parseRange(ctx.get('range'), size);
  ctx.set('accept-ranges', 'bytes');
  ctx.set('x-content-sha256', String(withHash!.sha256));
  ctx.set('etag', `"${withHash!.sha256}"`);
  ctx.type = 'application/octet-stream';
  sendRaw(ctx);
  if (range) {
    ctx.status = 206;
    ctx.set('content-range', `bytes ${range.start}-${range.end}/${size}`);
    ctx.length = range.end - range.start + 1;
  } else {
    ctx.status = 200;
    ctx.length = size;
  }
  // Large reads: fewer, bigger writes to the socket (a file is hundreds of MB).
  ctx.body = fs.createReadStream(file, { ...range, highWaterMark: 1024 * 1024 });
}
