// Whole chunks are written with O_DIRECT where the system offers it (Linux): the bytes go from the pooled buffer to
// the disk without a copy into the page cache. Through the cache, the kernel copies each chunk and, on a machine
// whose memory is touched for the first time (a freshly started VM), takes a page fault per 4 KiB it caches: as
// much CPU as receiving the chunk, and a 1 GiB upload leaves 1 GiB of cache behind (bench/media.ts).
//
// O_DIRECT wants the memory, the file offset and the length aligned to the disk's block size. Offsets and lengths of
// whole chunks are multiples of ALIGNMENT; pooled buffers are allocated ALIGNMENT bytes larger and used from the
// first start the kernel accepts (JavaScript cannot see addresses, so a probe write asks). Everything else (the last
// chunk, a chunk received into a file, a file system without O_DIRECT) is written through the cache as before.
import crypto from 'node:crypto';
import { constants } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { mkdirPrivate, PRIVATE_FILE_MODE } from '../data-dir.js';

/** A multiple of every block size in use (512 and 4096 bytes). */
export const ALIGNMENT = 4096;
/** Buffers come from malloc, whose blocks start on at least 16 bytes. */
const ADDRESS_STEP = 16;

/** The byte offset at which each aligned buffer's memory starts on a block boundary. */
const alignedStarts = new WeakMap<ArrayBufferLike, number>();

/** Whether these bytes can be written with O_DIRECT at this file offset. */
export const directWritable = (bytes: Buffer, offset: number): boolean =>
  alignedStarts.get(bytes.buffer) === bytes.byteOffset && bytes.length % ALIGNMENT === 0 && offset % ALIGNMENT === 0;

/** Opens a file for writing around the page cache; undefined where that is not possible. */
export async function openDirect(file: string): Promise<FileHandle | undefined> {
  if (!constants.O_DIRECT) return undefined;
  return fs.open(file, constants.O_WRONLY | constants.O_CREAT | constants.O_DIRECT, PRIVATE_FILE_MODE).catch(() => undefined);
}

export const isAlignmentError = (err: unknown): boolean => (err as NodeJS.ErrnoException).code === 'EINVAL';

/** Allocates buffers that direct writes accept, probing against a scratch file in `folder`. */
export class AlignedBuffers {
  private probe?: Promise<FileHandle | undefined>;

  constructor(private readonly folder: string) {}

  /** A buffer of `size` bytes, aligned when the folder's file system takes direct writes. */
  async allocate(size: number): Promise<Buffer> {
    const probe = await (this.probe ??= this.openProbe());
    const raw = Buffer.allocUnsafeSlow(size + ALIGNMENT);
    if (probe && size >= ALIGNMENT) {
      // What the probe writes to disk: zeros, not whatever this memory held before.
      raw.fill(0, 0, 2 * ALIGNMENT);
      for (let start = 0; start < ALIGNMENT; start += ADDRESS_STEP) {
        try {
          await probe.write(raw, start, ALIGNMENT, 0);
        } catch (err) {
          if (isAlignmentError(err)) continue;
          break;
        }
        alignedStarts.set(raw.buffer, start);
        return raw.subarray(start, start + size);
      }
    }
    return raw.subarray(0, size);
  }

  /** A scratch file on the folder's file system, removed at once (it stays usable while open). */
  private async openProbe(): Promise<FileHandle | undefined> {
    await mkdirPrivate(this.folder);
    const file = path.join(this.folder, `.direct-io-probe-${crypto.randomUUID()}`);
    const probe = await openDirect(file);
    await fs.rm(file, { force: true });
    return probe;
  }

  async close(): Promise<void> {
    const probe = await this.probe;
    this.probe = undefined;
    await probe?.close();
  }
}
