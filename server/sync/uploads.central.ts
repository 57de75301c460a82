// Central: files a branch uploads before pushing the media they belong to (docs/sync.md, "Files"), resumed from the
// byte the central server has and verified by sha256 when the media is pushed. Each request's bytes become one piece
// `sync/uploads/<gid>/<start>` in the storage (a bucket has no append), whatever arrived of a request cut short
// included; any node can answer the next request, since the pieces say how far the file got.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Context } from 'koa';
import { MEDIA_DIRECT_MAX_BYTES } from '../../contract/media.js';
import { SyncErrorCode, type UploadState } from '../../contract/sync.js';
import { AppError, badRequest, payloadTooLarge } from '../http/errors.js';
import { keys, type ObjectInfo, type Storage } from '../storage/index.js';

interface Piece {
  key: string;
  start: number;
  size: number;
}

/** The pieces that follow one another from byte 0 (a piece that starts elsewhere is the rest of a lost race). */
async function piecesOf(storage: Storage, gid: string): Promise<{ pieces: Piece[]; received: number }> {
  const found: ObjectInfo[] = [];
  for await (const object of storage.list(keys.syncUploadPrefix(gid))) found.push(object);
  const byStart = new Map(found.map((o) => [Number(o.key.slice(o.key.lastIndexOf('/') + 1)), o]));
  const pieces: Piece[] = [];
  let received = 0;
  for (let next = byStart.get(0); next && next.size > 0; next = byStart.get(received)) {
    pieces.push({ key: next.key, start: received, size: next.size });
    received += next.size;
  }
  return { pieces, received };
}

/** The staged bytes as one stream. */
function concatenated(storage: Storage, pieces: Piece[]): Readable {
  return Readable.from(
    (async function* () {
      for (const piece of pieces) yield* (await storage.get(piece.key)) as AsyncIterable<Buffer>;
    })(),
  );
}

/** What was staged for a gid: its size and a reader of its bytes. */
export async function stagedUpload(storage: Storage, gid: string): Promise<{ size: number; read(): Readable; discard(): Promise<void> }> {
  const { pieces, received } = await piecesOf(storage, gid);
  return { size: pieces.length ? received : -1, read: () => concatenated(storage, pieces), discard: () => storage.deletePrefix(keys.syncUploadPrefix(gid)) };
}

/**
 * The upload of each file being received on this node: a request cut off is noticed a moment after the branch's next
 * one may arrive, so that one waits until the bytes of the first are stored (else it would resume from too early).
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

export const uploadState = (storage: Storage, gid: string): Promise<UploadState> =>
  exclusively(gid, async () => ({ gid, received: (await piecesOf(storage, gid)).received }));

/** `Content-Range: bytes <start>-<end>/<total>` of a PUT; the start must be the bytes already received. */
function parseContentRange(header: string): { start: number; end: number; total: number } {
  const match = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(header.trim());
  if (!match) throw badRequest('An upload needs a Content-Range: bytes <start>-<end>/<total> header');
  const [start, end, total] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (end < start || end >= total) throw badRequest('The Content-Range does not lie within the file');
  if (total > MEDIA_DIRECT_MAX_BYTES) throw payloadTooLarge(`The file is larger than ${MEDIA_DIRECT_MAX_BYTES} bytes`);
  return { start, end, total };
}

/** Stores the request's bytes as the piece at the range's start; a start that is not the bytes stored is 416 with what is there. */
export function receiveUpload(ctx: Context, storage: Storage, gid: string): Promise<UploadState> {
  const range = parseContentRange(ctx.get('content-range'));
  return exclusively(gid, () => append(ctx, storage, gid, range));
}

async function append(ctx: Context, storage: Storage, gid: string, range: { start: number; end: number }): Promise<UploadState> {
  const have = (await piecesOf(storage, gid)).received;
  if (range.start !== have) {
    ctx.req.resume();
    throw new AppError(416, SyncErrorCode.rangeNotSatisfiable, `The upload is at byte ${have}`, { received: have });
  }
  const expected = range.end - range.start + 1;
  // The request's bytes go to a temporary file first, so that what arrived of a request cut short is kept too.
  const folder = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'trainbench-sync-upload-'));
  const file = path.join(folder, 'piece');
  let written = 0;
  let failure: AppError | undefined;
  const out = fs.createWriteStream(file, { mode: 0o600 });
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
    // What arrived is kept once it is all written (the file stream may end with an error of its own: it is closed all the same).
    if (!out.closed) await once(out, 'close').catch(() => undefined);
    failure = err instanceof AppError ? err : badRequest('The upload was cut off before its end');
  }
  try {
    const size = (await fs.promises.stat(file)).size;
    if (size > 0 && !(failure && written > expected)) await storage.putFile(keys.syncUploadPiece(gid, range.start), file, { move: true });
  } finally {
    await fs.promises.rm(folder, { recursive: true, force: true });
  }
  if (failure) throw failure;
  return { gid, received: (await piecesOf(storage, gid)).received };
}
