import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { Db } from '../db/knex.js';
import { MEDIA_CHUNK_SIZE, MEDIA_DIRECT_MAX_BYTES, MediaErrorCode } from '../../contract/media.js';
import { currentUser } from '../auth/guards.js';
import { AppError, badRequest, notFound, validationFailed } from '../http/errors.js';
import { parseBody, parseWith } from '../http/validate.js';
import { formField, requireFile } from '../http/multipart.js';
import { notify } from '../notifications/notifications.service.js';
import { materialSuggested } from '../notifications/messages.js';
import fs from 'node:fs/promises';
import { closeIfUnread, receiveUpload } from './media.receive.js';
import { BufferPool, fillBuffer } from './media.buffers.js';
import { readChunkForm } from './media.chunk-form.js';
import { requestFolder } from './media.storage.js';
import { addMedia, announcePending, checkBinding } from './media.service.js';
import { acceptChunk, completeUpload, describeUpload, initUpload } from './media.chunked.js';
import type { ChunkSource } from './media.assembly.js';
import type { MediaStore } from './media.store.js';
import { Binding, ChunkFields, CompleteBody, SuggestFields, UploadId, UploadInit } from './media.schema.js';
import { collectYoungGarbage } from '../http/young-gc.js';

/**
 * Chunks in memory at once (5 MB each), being received or written behind their answer; more concurrent chunks go
 * through a temporary file. Three let a client with two chunks in flight be served from memory throughout.
 */
const CHUNKS_IN_MEMORY = 3;
/** Room for the multipart boundaries and text fields around a chunk. */
const CHUNK_FORM_OVERHEAD_BYTES = 64 * 1024;

const formFields = (ctx: Context, names: string[]) => Object.fromEntries(names.map((name) => [name, formField(ctx, name)]));

/** The one file of a multipart upload, in its request folder under DATA_DIR/media/incoming. */
function receivedFile(ctx: Context) {
  const file = requireFile(ctx, 'file');
  const parts = Object.values(ctx.request.files ?? {}).flat().length;
  if (parts > 1) throw badRequest(`Send exactly one file, in the field "file" (got ${parts})`);
  return { path: file.filepath, clientName: file.originalFilename, size: file.size };
}

const chunkTooLarge = () => new AppError(400, MediaErrorCode.chunkSizeMismatch, `A chunk is at most ${MEDIA_CHUNK_SIZE} bytes`);

export interface UploadDeps {
  db: Db;
  media: MediaStore;
  requireUser: Middleware;
}

/** Reads a request body of the declared size into the buffer; a body that ends early or runs over is a 400. */
async function readInto(ctx: Context, buffer: Buffer, size: number): Promise<Buffer> {
  const bytes = await fillBuffer(ctx.req, buffer, () => badRequest(`The chunk is longer than its Content-Length of ${size} bytes`));
  if (bytes.length !== size) throw badRequest('The chunk was cut off before its end');
  return bytes;
}

/**
 * Direct and chunked uploads under /media, and suggest-material under /company-train. Every upload creates a
 * pending media.
 */
export function uploadRoutes({ db, media: store, requireUser }: UploadDeps): Router[] {
  const dirs = store.dirs;
  const direct = receiveUpload(dirs, { maxFileSize: MEDIA_DIRECT_MAX_BYTES });
  const chunkBuffers = new BufferPool(MEDIA_CHUNK_SIZE, CHUNKS_IN_MEMORY, { allocate: (size) => store.chunks.allocateBuffer(size) });

  /**
   * Runs a chunk handler with a pooled buffer when one is free and a request folder made on demand (for a chunk that
   * goes through a file instead); both are given back, unless the handler kept the buffer (`keep`, for a write
   * behind its answer), and a refused body is not read on, whatever happens.
   */
  const withChunkBuffer = async (
    ctx: Context,
    handle: (buffer: Buffer | undefined, folder: () => Promise<string>, keep: () => () => void) => Promise<void>,
  ) => {
    const buffer = await chunkBuffers.acquire();
    let kept = false;
    const keep = () => {
      kept = true;
      return () => buffer && chunkBuffers.release(buffer);
    };
    let folder: Promise<string> | undefined;
    try {
      await handle(buffer, () => (folder ??= requestFolder(dirs)), keep);
    } catch (err) {
      closeIfUnread(ctx);
      throw err;
    } finally {
      if (buffer && !kept) chunkBuffers.release(buffer);
      collectYoungGarbage();
      if (folder) await fs.rm(await folder, { recursive: true, force: true }).catch(() => undefined);
    }
  };

  const media = new Router({ prefix: '/media' });

  media.post('/upload', requireUser, direct, async (ctx) => {
    const binding = parseWith(Binding, formFields(ctx, ['bind_type', 'bind_id']));
    const file = receivedFile(ctx);
    await checkBinding(db, binding);
    const user = currentUser(ctx);
    const created = await addMedia(db, store.storage, file, binding, user);
    await announcePending(db, created, user);
    ctx.status = 201;
    ctx.body = created;
  });

  for (const path of ['/upload/init', '/upload-init']) {
    media.post(path, requireUser, async (ctx) => {
      ctx.status = 201;
      ctx.body = await initUpload(db, store, currentUser(ctx), parseBody(ctx, UploadInit));
    });
  }

  const multipartChunkHandler = (ctx: Context) =>
    withChunkBuffer(ctx, async (buffer, folder, keep) => {
      if (Number(ctx.get('content-length')) > MEDIA_CHUNK_SIZE + CHUNK_FORM_OVERHEAD_BYTES) throw chunkTooLarge();
      const form = await readChunkForm(ctx, buffer, folder);
      const fields = parseWith(ChunkFields, { upload_id: form.fields.upload_id, chunk_index: form.fields.chunk_index });
      ctx.body = await acceptChunk(db, store, currentUser(ctx), fields.upload_id, fields.chunk_index, { ...form, keep });
    });

  // The chunk may also be the raw body (application/octet-stream, upload_id and chunk_index in the query,
  // Content-Length required): no multipart parsing; read into a pooled buffer when one is free, else streamed.
  const rawChunkHandler = (ctx: Context) =>
    withChunkBuffer(ctx, async (buffer, _folder, keep) => {
      const fields = parseWith(ChunkFields, { upload_id: ctx.query.upload_id, chunk_index: ctx.query.chunk_index });
      const length = ctx.get('content-length');
      if (!/^\d+$/.test(length)) throw validationFailed('A raw chunk needs a Content-Length header');
      const size = Number(length);
      try {
        const source: ChunkSource = buffer && size <= buffer.length ? { kind: 'memory', bytes: await readInto(ctx, buffer, size) } : { kind: 'stream', body: ctx.req };
        ctx.body = await acceptChunk(db, store, currentUser(ctx), fields.upload_id, fields.chunk_index, { size, source, keep });
      } catch (err) {
        if (!(err instanceof AppError) && !ctx.req.complete) throw badRequest('The chunk was cut off before its end');
        throw err;
      }
    });

  for (const path of ['/upload/chunk', '/upload-chunk']) {
    media.post(path, requireUser, (ctx: Context) => (ctx.is('application/octet-stream') ? rawChunkHandler(ctx) : multipartChunkHandler(ctx)));
  }

  for (const path of ['/upload/complete', '/upload-complete']) {
    media.post(path, requireUser, async (ctx) => {
      const user = currentUser(ctx);
      const { media: created, created: isNew } = await completeUpload(db, store, user, parseBody(ctx, CompleteBody).upload_id);
      if (isNew) await announcePending(db, created, user);
      ctx.status = isNew ? 201 : 200;
      ctx.body = created;
    });
  }

  media.get('/upload/:uploadId', requireUser, async (ctx) => {
    const uploadId = UploadId.safeParse(ctx.params.uploadId);
    if (!uploadId.success) throw notFound('Upload session');
    ctx.body = await describeUpload(db, store, currentUser(ctx), uploadId.data);
  });

  const company = new Router({ prefix: '/company-train' });
  company.post('/suggest-material', requireUser, direct, async (ctx) => {
    const { remark } = parseWith(SuggestFields, formFields(ctx, ['remark']));
    const file = receivedFile(ctx);
    const user = currentUser(ctx);
    const created = await addMedia(db, store.storage, file, { bind_type: 'company' }, user, remark);
    await notify.admins(db, materialSuggested(user.full_name || user.username, created, remark));
    ctx.status = 201;
    ctx.body = created;
  });

  return [media, company];
}
