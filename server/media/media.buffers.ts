// Chunks of a chunked upload are at most 5 MB: they are received into a few reused buffers and written once, at
// their offset in the assembled file, instead of going through a temporary file first (half the disk traffic).
import { Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface BufferPoolOptions {
  /** How buffers are made (e.g. aligned for direct writes). */
  allocate?: (size: number) => Promise<Buffer>;
  /** How long every buffer must have been back before the pool lets them go. */
  idleMs?: number;
}

const allocateUnsafe = async (size: number) => Buffer.allocUnsafe(size);

/**
 * At most `max` buffers of `size` bytes, created on demand and reused; none left means "receive to disk instead".
 * Once every buffer has been back for `idleMs`, the pool lets them go: between uploads they are not held.
 */
export class BufferPool {
  private free: Buffer[] = [];
  private created = 0;
  private idle?: NodeJS.Timeout;

  constructor(
    readonly size: number,
    private readonly max: number,
    private readonly options: BufferPoolOptions = {},
  ) {}

  /** Buffers that exist right now, lent or free. */
  get allocated(): number {
    return this.created;
  }

  async acquire(): Promise<Buffer | undefined> {
    clearTimeout(this.idle);
    const reused = this.free.pop();
    if (reused || this.created >= this.max) return reused;
    this.created++;
    try {
      return await (this.options.allocate ?? allocateUnsafe)(this.size);
    } catch (err) {
      this.created--;
      throw err;
    }
  }

  release(buffer: Buffer): void {
    this.free.push(buffer);
    if (this.free.length < this.created) return;
    clearTimeout(this.idle);
    this.idle = setTimeout(() => {
      this.created -= this.free.length;
      this.free = [];
    }, this.options.idleMs ?? 10_000).unref();
  }
}

/** Fills a borrowed buffer. The pieces are copied: the multipart parser may reuse the memory it hands over. */
export class BufferWriter extends Writable {
  length = 0;

  constructor(private readonly target: Buffer) {
    super();
  }

  override _write(piece: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    if (this.length + piece.length > this.target.length) return done(new RangeError(`More than ${this.target.length} bytes for one buffer`));
    piece.copy(this.target, this.length);
    this.length += piece.length;
    done();
  }

  /** What was received so far (a view of the borrowed buffer, valid until it is released). */
  get bytes(): Buffer {
    return this.target.subarray(0, this.length);
  }
}

/** Copies a stream into the buffer and returns the part it filled; `overflow()` is thrown when more arrives than fits. */
export async function fillBuffer(stream: Readable, buffer: Buffer, overflow: () => Error): Promise<Buffer> {
  const writer = new BufferWriter(buffer);
  await pipeline(stream, writer).catch((err: unknown) => {
    throw err instanceof RangeError ? overflow() : err;
  });
  return writer.bytes;
}
