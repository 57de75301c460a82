// Central: files a branch uploads before pushing the media they belong to (docs/sync.md, "Files"): appended to
// DATA_DIR/sync/uploads/<gid>.part from the byte the central server has, verified by sha256 when the media is pushed.
import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import type { Context } from 'koa';
import { MEDIA_DIRECT_MAX_BYTES } from '../../contract/media.js';
import { SyncErrorCode, type UploadState } from '../../contract/sync.js';
import { mkdirPrivate, PRIVATE_FILE_MODE } from '../data-dir.js';
import { AppError, badRequest, payloadTooLarge } from '../http/errors.js';

export const stagedUpload = (dataDir: string, gid: string): string => path.join(dataDir, 'sync', 'uploads', `${gid}.part`);

const sizeOf = (file: string): number => {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
};

/**
 * The upload of each file being received: a request cut off is noticed a moment after the branch's next one may
 * arrive, so that one waits until the bytes of the first are all on disk (else it would append in the middle).
 */
const receiving = new Map<string, Promise<unknown>>();

async function exclusively<T>(key: string, work: () => Promise<T>): Promise<T> {
  const previous = receiving.get(key);
  const current = (async () => {
    await previous?.catch(() => undefined);
    return work();
  })();
  receiving.set(key, current);
  try {
    return await current;
  } finally {
    if (receiving.get(key) === current) receiving.delete(key);
  }
}

export const uploadState = (dataDir: string, gid: string): Promise<UploadState> =>
  exclusively(stagedUpload(dataDir, gid), async () => ({ gid, received: sizeOf(stagedUpload(dataDir, gid)) }));

/** `Content-Range: bytes <start>-<end>/<total>` of a PUT; the start must be the bytes already received. */
function parseContentRange(header: string): { start: number; end: number; total: number } {
  const match = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(header.trim());
  if (!match) throw badRequest('An upload needs a Content-Range: bytes <start>-<end>/<total> header');
  const [start, end, total] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (end < start || end >= total) throw badRequest('The Content-Range does not lie within the file');
  if (total > MEDIA_DIRECT_MAX_BYTES) throw payloadTooLarge(`The file is larger than ${MEDIA_DIRECT_MAX_BYTES} bytes`);
  return { start, end, total };
}

/** Appends the request's bytes at the range's start; a start that is not the bytes on disk is 416 with what is there. */
export function receiveUpload(ctx: Context, dataDir: string, gid: string): Promise<UploadState> {
  const range = parseContentRange(ctx.get('content-range'));
  const file = stagedUpload(dataDir, gid);
  return exclusively(file, () => append(ctx, file, gid, range));
}

async function append(ctx: Context, file: string, gid: string, range: { start: number; end: number }): Promise<UploadState> {
  const have = sizeOf(file);
  if (range.start !== have) {
    ctx.req.resume();
    throw new AppError(416, SyncErrorCode.rangeNotSatisfiable, `The upload is at byte ${have}`, { received: have });
  }
  await mkdirPrivate(path.dirname(file));
  const expected = range.end - range.start + 1;
  let written = 0;
  const out = fs.createWriteStream(file, { flags: 'a', mode: PRIVATE_FILE_MODE });
  try {
    await pipeline(
      ctx.req,
      async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          written += chunk.length;
          if (written > expected) throw badRequest('The body is longer than its Content-Range');
          yield chunk;
        }
      },
      out,
    );
  } catch (err) {
    // What arrived is kept (once it is all written): the branch resumes at the bytes on disk.
    if (!out.closed) await once(out, 'close');
    if (err instanceof AppError) throw err;
    throw badRequest('The upload was cut off before its end');
  }
  return { gid, received: sizeOf(file) };
}
