// The file a chunked upload assembles, DATA_DIR/media/chunks/<upload_id>/file.part: each chunk is written once,
// at its offset, as it arrives, so complete has nothing left to copy (the merge happens along the way).
//
// The file stays open between chunks (one handle per upload, closed after a short idle time, at complete and when
// the server stops): opening and closing it around every 5 MB chunk cost three extra trips through the thread pool.
// Written data is flushed to disk in the background every FLUSH_EVERY_BYTES, which bounds what complete's final
// flush has to wait for without paying for an fdatasync (and a journal commit) after every chunk. Whole chunks in
// aligned buffers go around the page cache (media.direct-io.ts) through a second handle opened with O_DIRECT.
import { createReadStream, constants } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { MediaErrorCode } from '../../contract/media.js';
import { AppError } from '../http/errors.js';
import { now } from '../db/time.js';
import { partialFilePath, uploadDir, type MediaDirs } from './media.storage.js';
import { mkdirPrivate, PRIVATE_FILE_MODE } from '../data-dir.js';
import { AlignedBuffers, directWritable, isAlignmentError, openDirect } from './media.direct-io.js';

/** Where a chunk's bytes are: a pooled buffer, a temporary file, or still in the request (raw body). */
export type ChunkSource = { kind: 'memory'; bytes: Buffer } | { kind: 'file'; path: string } | { kind: 'stream'; body: Readable };

const IDLE_CLOSE_MS = 15_000;
const FLUSH_EVERY_BYTES = 128 * 1024 * 1024;

interface OpenFile {
  handle: Promise<FileHandle>;
  /** The O_DIRECT handle, opened at the first aligned chunk; undefined when direct writes are not possible. */
  direct?: Promise<FileHandle | undefined>;
  /** Writes and flushes using the handle right now: it is not closed under them. */
  users: number;
  idle?: NodeJS.Timeout;
  /** Called when users drops to 0 (a close waiting for writes to end). */
  drained: (() => void)[];
  unflushed: number;
  flushing?: Promise<void>;
  /** The last write queued: writes to one file go one at a time (see writeAt). */
  lastWrite: Promise<unknown>;
}

async function writeFully(handle: FileHandle, bytes: Uint8Array, position: number): Promise<number> {
  let written = 0;
  while (written < bytes.length) written += (await handle.write(bytes, written, bytes.length - written, position + written)).bytesWritten;
  return written;
}

export interface UploadFilesOptions {
  idleCloseMs?: number;
  flushEveryBytes?: number;
}

/**
 * Told when everything written to an upload's file before `writtenBefore` (an ISO time) is on disk: after a
 * background flush, and when an idle or the server's stop closes the file.
 */
export type OnDurable = (uploadId: string, writtenBefore: string) => Promise<unknown>;

/** The assembled files of one media folder (one instance per DATA_DIR, shared by its routes, sweep and tests). */
export class UploadFiles {
  private readonly open = new Map<string, OpenFile>();
  /** Set by the media routes, which record it in the database. */
  onDurable: OnDurable = async () => undefined;
  private readonly idleCloseMs: number;
  private readonly flushEveryBytes: number;
  private readonly alignedBuffers: AlignedBuffers;

  constructor(
    private readonly dirs: MediaDirs,
    { idleCloseMs = IDLE_CLOSE_MS, flushEveryBytes = FLUSH_EVERY_BYTES }: UploadFilesOptions = {},
  ) {
    this.idleCloseMs = idleCloseMs;
    this.flushEveryBytes = flushEveryBytes;
    this.alignedBuffers = new AlignedBuffers(dirs.chunks);
  }

  /** A buffer for receiving a chunk into, which writeAt can write around the page cache where possible. */
  allocateBuffer(size: number): Promise<Buffer> {
    return this.alignedBuffers.allocate(size);
  }

  /** Uploads whose file is open right now. */
  get openCount(): number {
    return this.open.size;
  }

  /** The folder and an empty file for a new upload. */
  async create(uploadId: string): Promise<void> {
    await mkdirPrivate(uploadDir(this.dirs, uploadId));
    await fs.writeFile(partialFilePath(this.dirs, uploadId), '', { mode: PRIVATE_FILE_MODE });
  }

  /**
   * Writes a chunk at its offset and returns how many bytes were written. Chunks of one upload are written one after
   * the other: the kernel serializes buffered writes to a file anyway, and a second writer waiting on the inode lock
   * spins, burning a core that the receiving side needs.
   */
  async writeAt(uploadId: string, source: ChunkSource, offset: number): Promise<number> {
    const file = this.acquire(uploadId);
    try {
      const handle = await file.handle;
      const write = file.lastWrite.then(() => this.copy(uploadId, file, handle, source, offset));
      file.lastWrite = write.catch(() => undefined);
      const written = await write;
      file.unflushed += written;
      if (file.unflushed >= this.flushEveryBytes) this.flushInBackground(uploadId, file);
      return written;
    } finally {
      this.release(uploadId, file);
    }
  }

  /** Flushes the assembled file to disk, checks its length, closes it and returns its path. */
  async finish(uploadId: string, expectedSize: number): Promise<string> {
    const file = this.acquire(uploadId);
    try {
      await file.flushing;
      const handle = await file.handle;
      await handle.sync();
      const { size } = await handle.stat();
      if (size !== expectedSize) throw new AppError(400, MediaErrorCode.sizeMismatch, `The chunks add up to ${size} bytes, not the declared ${expectedSize}`);
    } finally {
      this.release(uploadId, file);
    }
    await this.close(uploadId);
    return partialFilePath(this.dirs, uploadId);
  }

  /** Closes the file of an upload that goes away, and removes its folder. */
  async remove(uploadId: string): Promise<void> {
    await this.close(uploadId);
    await fs.rm(uploadDir(this.dirs, uploadId), { recursive: true, force: true });
  }

  /** Flushes and closes every open file (the server is stopping). */
  async closeAll(): Promise<void> {
    await Promise.all([...this.open.keys()].map((uploadId) => this.close(uploadId, { flush: true }).catch(() => undefined)));
    await this.alignedBuffers.close();
  }

  private acquire(uploadId: string): OpenFile {
    let file = this.open.get(uploadId);
    if (!file) {
      // O_CREAT without O_TRUNC: a file a restart left behind keeps the chunks it already holds.
      const handle = mkdirPrivate(uploadDir(this.dirs, uploadId)).then(() => fs.open(partialFilePath(this.dirs, uploadId), constants.O_WRONLY | constants.O_CREAT, PRIVATE_FILE_MODE));
      file = { handle, users: 0, drained: [], unflushed: 0, lastWrite: Promise.resolve() };
      this.open.set(uploadId, file);
      handle.catch(() => this.open.get(uploadId) === file && this.open.delete(uploadId));
    }
    clearTimeout(file.idle);
    file.users++;
    return file;
  }

  private release(uploadId: string, file: OpenFile): void {
    if (--file.users > 0) return;
    for (const resume of file.drained.splice(0)) resume();
    if (this.open.get(uploadId) !== file) return;
    file.idle = setTimeout(() => void this.close(uploadId, { flush: true }).catch(() => undefined), this.idleCloseMs).unref();
  }

  /**
   * Forgets the handle first (a write arriving meanwhile opens a new one), then closes it once nobody uses it;
   * with `flush`, what was written is put on disk first and reported durable.
   */
  private async close(uploadId: string, { flush = false } = {}): Promise<void> {
    const file = this.open.get(uploadId);
    if (!file) return;
    this.open.delete(uploadId);
    clearTimeout(file.idle);
    if (file.users > 0) await new Promise<void>((resume) => file.drained.push(resume));
    const [handle, direct] = await Promise.all([file.handle.catch(() => undefined), file.direct]);
    await direct?.close();
    if (!handle) return;
    try {
      if (flush) await this.flushNow(uploadId, handle);
    } finally {
      await handle.close();
    }
  }

  private async flushNow(uploadId: string, handle: FileHandle): Promise<void> {
    const writtenBefore = now();
    await handle.datasync();
    await this.onDurable(uploadId, writtenBefore);
  }

  private async copy(uploadId: string, file: OpenFile, handle: FileHandle, source: ChunkSource, offset: number): Promise<number> {
    if (source.kind === 'memory' && directWritable(source.bytes, offset)) {
      const direct = await (file.direct ??= openDirect(partialFilePath(this.dirs, uploadId)));
      if (direct) {
        try {
          return await writeFully(direct, source.bytes, offset);
        } catch (err) {
          // A short direct write leaves an unaligned rest: the whole chunk is written again through the cache.
          if (!isAlignmentError(err)) throw err;
        }
      }
    }
    if (source.kind === 'memory') return writeFully(handle, source.bytes, offset);
    const input = source.kind === 'file' ? createReadStream(source.path, { highWaterMark: 1024 * 1024 }) : source.body;
    let written = 0;
    for await (const piece of input as AsyncIterable<Buffer>) written += await writeFully(handle, piece, offset + written);
    return written;
  }

  /** Starts writing what is already received to disk, unless a flush is running (errors surface at complete or close). */
  private flushInBackground(uploadId: string, file: OpenFile): void {
    if (file.flushing) return;
    file.unflushed = 0;
    file.users++;
    file.flushing = file.handle
      .then((handle) => this.flushNow(uploadId, handle))
      .catch(() => undefined)
      .finally(() => {
        file.flushing = undefined;
        this.release(uploadId, file);
      });
  }
}

const instances = new Map<string, UploadFiles>();

/** The UploadFiles of a media folder, one per folder in this process. */
export function uploadFiles(dirs: MediaDirs): UploadFiles {
  let files = instances.get(dirs.chunks);
  if (!files) instances.set(dirs.chunks, (files = new UploadFiles(dirs)));
  return files;
}
