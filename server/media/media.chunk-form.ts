// The multipart form of one chunk (upload_id, chunk_index, file), read with busboy straight into a pooled buffer.
// Chunks are the one hot multipart path (a 1 GB video is 200 of them): busboy's parser costs about half of
// formidable's, and nothing sits between it and the buffer. Other uploads go through koa-body (http/multipart.ts).
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { Context } from 'koa';
import { MEDIA_CHUNK_SIZE, MediaErrorCode } from '../../contract/media.js';
import { AppError, badRequest, validationFailed } from '../http/errors.js';
import { fillBuffer } from './media.buffers.js';
import type { ChunkSource } from './media.assembly.js';
import { PRIVATE_FILE_MODE } from '../data-dir.js';
import { refuseEncodedBody } from '../http/multipart.js';

export interface ChunkForm {
  fields: Record<string, string>;
  size: number;
  source: ChunkSource;
}

const tooLarge = () => new AppError(400, MediaErrorCode.chunkSizeMismatch, `A chunk is at most ${MEDIA_CHUNK_SIZE} bytes`);

/** Copies the file part into the buffer, or into a file in `folder` when no buffer was free. Resolves to its source. */
async function receivePart(stream: Readable, buffer: Buffer | undefined, folder: () => Promise<string>): Promise<{ size: number; source: ChunkSource }> {
  if (buffer) {
    const bytes = await fillBuffer(stream, buffer, tooLarge);
    return { size: bytes.length, source: { kind: 'memory', bytes } };
  }
  const target = path.join(await folder(), 'chunk');
  const out = createWriteStream(target, { mode: PRIVATE_FILE_MODE });
  await pipeline(stream, out);
  return { size: out.bytesWritten, source: { kind: 'file', path: target } };
}

/**
 * Reads the whole form. 400 when it is not multipart, is malformed, has no file in "file", more than one file, or
 * a file over one chunk. `folder` gives a request folder for the file when `buffer` is undefined.
 */
export function readChunkForm(ctx: Context, buffer: Buffer | undefined, folder: () => Promise<string>): Promise<ChunkForm> {
  if (!ctx.is('multipart')) throw validationFailed('Expected a multipart/form-data body');
  refuseEncodedBody(ctx);
  let parser: busboy.Busboy;
  try {
    // busboy reports 'limit' on reaching fileSize, so one byte more lets an exactly full chunk through.
    parser = busboy({ headers: ctx.req.headers, limits: { fileSize: MEDIA_CHUNK_SIZE + 1, files: 1, fields: 20, fieldSize: 64 * 1024 } });
  } catch (err) {
    throw badRequest(`Malformed multipart body: ${(err as Error).message}`);
  }
  return new Promise<ChunkForm>((resolve, reject) => {
    const fields: Record<string, string> = {};
    let part: Promise<{ size: number; source: ChunkSource }> | undefined;
    let failure: Error | undefined;
    const fail = (error: Error) => {
      failure ??= error;
      ctx.req.unpipe(parser);
      reject(failure);
    };
    parser.on('field', (name, value) => {
      fields[name] ??= value.trim();
    });
    parser.on('file', (name, stream) => {
      if (name !== 'file') {
        stream.resume();
        return fail(badRequest(`Send the chunk in the field "file" (got a file in "${name}")`));
      }
      stream.once('limit', () => fail(tooLarge()));
      part = receivePart(stream, buffer, folder);
      part.catch(fail);
    });
    parser.on('filesLimit', () => fail(badRequest('Send exactly one file, in the field "file"')));
    parser.on('error', (err: Error) => fail(badRequest(`Malformed multipart body: ${err.message}`)));
    parser.on('close', () => {
      if (failure) return;
      if (!part) return fail(validationFailed('Missing file field "file"'));
      part.then(({ size, source }) => {
        if (!failure) resolve({ fields, size, source });
      }, fail);
    });
    ctx.req.once('close', () => {
      if (!ctx.req.complete) fail(badRequest('The chunk was cut off before its end'));
    });
    ctx.req.pipe(parser);
  });
}
