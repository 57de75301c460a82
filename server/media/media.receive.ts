import fs from 'node:fs/promises';
import { Writable } from 'node:stream';
import type { Context, Middleware, Next } from 'koa';
import { multipart } from '../http/multipart.js';
import { payloadTooLarge, type AppError } from '../http/errors.js';
import { requestFolder, type MediaDirs } from './media.storage.js';
import { BufferWriter, type BufferPool } from './media.buffers.js';

/** Room for the multipart boundaries and text fields around the file. */
const FORM_OVERHEAD_BYTES = 1024 * 1024;

export interface ReceiveOptions {
  maxFileSize: number;
  /** The error for a file over maxFileSize (a 413 unless the route says otherwise). */
  tooLarge?: () => AppError;
  /** Receive the file into one of these buffers when one is free (maxFileSize must fit in it), else to disk. */
  buffers?: BufferPool;
}

/** The file of a request received into memory by receiveUpload, if it was. */
const inMemory = new WeakMap<Context, BufferWriter>();

export const receivedBytes = (ctx: Context): Buffer | undefined => inMemory.get(ctx)?.bytes;

/** After a refusal, a body that was not read to its end is not read at all: the connection closes after the answer. */
export function closeIfUnread(ctx: Context): void {
  if (!ctx.req.complete) ctx.set('Connection', 'close');
}

/** One buffer holds the first file part; any further one is dropped (the route refuses forms with several files). */
function writerInto(ctx: Context, buffer: Buffer) {
  return (): Writable => {
    if (inMemory.has(ctx)) return new Writable({ write: (_piece, _encoding, done) => done() });
    const writer = new BufferWriter(buffer);
    inMemory.set(ctx, writer);
    return writer;
  };
}

/**
 * multipart() streaming into a folder of its own under DATA_DIR/media/incoming (same file system as the media, so
 * keeping a file is a rename), or into a pooled buffer when asked and one is free. The folder goes when the request
 * is over: a refused or aborted upload leaves nothing.
 */
export function receiveUpload(dirs: MediaDirs, { maxFileSize, tooLarge = () => payloadTooLarge(`The file is larger than ${maxFileSize} bytes`), buffers }: ReceiveOptions): Middleware {
  if (buffers && buffers.size < maxFileSize) throw new RangeError('pooled buffers must hold maxFileSize bytes');
  return async (ctx: Context, next: Next) => {
    const buffer = buffers?.acquire();
    try {
      const declared = Number(ctx.get('content-length'));
      if (declared > maxFileSize + FORM_OVERHEAD_BYTES) throw tooLarge();
      // formidable names a file path even when the bytes go to a buffer; nothing is written there then.
      const folder = buffer ? undefined : await requestFolder(dirs);
      try {
        await multipart({ maxFileSize, uploadDir: folder ?? dirs.incoming, fileWriteStreamHandler: buffer && writerInto(ctx, buffer), tooLarge })(ctx, next);
      } finally {
        if (folder) await fs.rm(folder, { recursive: true, force: true }).catch(() => undefined);
      }
    } catch (err) {
      closeIfUnread(ctx);
      throw err;
    } finally {
      inMemory.delete(ctx);
      if (buffer) buffers!.release(buffer);
    }
  };
}
