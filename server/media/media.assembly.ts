// The file a chunked upload assembles, DATA_DIR/media/chunks/<upload_id>/file.part: each chunk is written once,
// at its offset, as it arrives, so complete has nothing left to copy (the merge happens along the way). Written
// data is flushed to disk in the background while the upload goes on, so that complete's final flush is short.
import { createReadStream, constants } from 'node:fs';
import fs from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MediaErrorCode } from '../../contract/media.js';
import { AppError } from '../http/errors.js';
import { partialFilePath, uploadDir, type MediaDirs } from './media.storage.js';

/** Where a chunk's bytes are: a pooled buffer, a temporary file, or still in the request (raw body). */
export type ChunkSource = { kind: 'memory'; bytes: Buffer } | { kind: 'file'; path: string } | { kind: 'stream'; body: Readable };

const openForWriting = (dirs: MediaDirs, uploadId: string) => fs.open(partialFilePath(dirs, uploadId), constants.O_WRONLY | constants.O_CREAT);

/** Writes a chunk at its offset and returns how many bytes were written. */
export async function writeChunkAt(dirs: MediaDirs, uploadId: string, source: ChunkSource, offset: number): Promise<number> {
  await fs.mkdir(uploadDir(dirs, uploadId), { recursive: true });
  const target = await openForWriting(dirs, uploadId);
  if (source.kind === 'memory') {
    try {
      let written = 0;
      while (written < source.bytes.length) written += (await target.write(source.bytes, written, source.bytes.length - written, offset + written)).bytesWritten;
      return written;
    } finally {
      await target.close();
    }
  }
  const out = target.createWriteStream({ start: offset });
  await pipeline(source.kind === 'file' ? createReadStream(source.path, { highWaterMark: 1024 * 1024 }) : source.body, out);
  return out.bytesWritten;
}

/** Background flushes in progress, one per upload at most. */
const flushing = new Map<string, Promise<void>>();

async function flush(dirs: MediaDirs, uploadId: string): Promise<void> {
  // r+: a file gone meanwhile (upload completed or discarded) is not created again.
  const handle = await fs.open(partialFilePath(dirs, uploadId), 'r+');
  try {
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

/** Starts writing what is already received to disk, unless a flush of this upload is running (errors surface at complete). */
export function flushSoon(dirs: MediaDirs, uploadId: string): void {
  if (flushing.has(uploadId)) return;
  const done = flush(dirs, uploadId)
    .catch(() => undefined)
    .finally(() => flushing.delete(uploadId));
  flushing.set(uploadId, done);
}

/** Flushes the assembled file to disk, checks its length, and returns its path. */
export async function finishFile(dirs: MediaDirs, uploadId: string, expectedSize: number): Promise<string> {
  await flushing.get(uploadId);
  const target = partialFilePath(dirs, uploadId);
  const handle = await fs.open(target, constants.O_WRONLY | constants.O_CREAT);
  try {
    await handle.sync();
    const { size } = await handle.stat();
    if (size !== expectedSize) throw new AppError(400, MediaErrorCode.sizeMismatch, `The chunks add up to ${size} bytes, not the declared ${expectedSize}`);
  } finally {
    await handle.close();
  }
  return target;
}
