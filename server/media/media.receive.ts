import fs from 'node:fs/promises';
import type { Context, Middleware, Next } from 'koa';
import { multipart } from '../http/multipart.js';
import { payloadTooLarge } from '../http/errors.js';
import { requestFolder, type MediaDirs } from './media.storage.js';

/** Room for the multipart boundaries and text fields around the file. */
const FORM_OVERHEAD_BYTES = 1024 * 1024;

export interface ReceiveOptions {
  maxFileSize: number;
}

/** After a refusal, a body that was not read to its end is not read at all: the connection closes after the answer. */
export function closeIfUnread(ctx: Context): void {
  if (!ctx.req.complete) ctx.set('Connection', 'close');
}

/**
 * multipart() streaming into a folder of its own under DATA_DIR/media/incoming (same file system as the media, so
 * keeping a file is a rename). The folder goes when the request is over: a refused or aborted upload leaves nothing.
 */
export function receiveUpload(dirs: MediaDirs, { maxFileSize }: ReceiveOptions): Middleware {
  const tooLarge = () => payloadTooLarge(`The file is larger than ${maxFileSize} bytes`);
  return async (ctx: Context, next: Next) => {
    try {
      const declared = Number(ctx.get('content-length'));
      if (declared > maxFileSize + FORM_OVERHEAD_BYTES) throw tooLarge();
      const folder = await requestFolder(dirs);
      try {
        await multipart({ maxFileSize, uploadDir: folder, tooLarge })(ctx, next);
      } finally {
        await fs.rm(folder, { recursive: true, force: true }).catch(() => undefined);
      }
    } catch (err) {
      closeIfUnread(ctx);
      throw err;
    }
  };
}
