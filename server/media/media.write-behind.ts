// A chunk received into a pooled buffer is answered as soon as its bytes are all in memory; its write to the
// assembled file runs behind, while the client sends the next chunk. A client that sends one chunk after another
// (the contract's plain client) then has the network and the disk working at once instead of in turn.
//
// What a client sees stays the contract's: the next request of the same upload (a chunk, complete, the status)
// waits for the writes behind it first, so a chunk answered 200 is listed as received by whatever comes next, and a
// write that failed is reported to the next chunk or complete of that upload (the failed chunk is missing again).
import { AppError } from '../http/errors.js';
import { MediaErrorCode } from '../../contract/media.js';

/** What the client is told about a chunk whose write behind failed. */
function chunkNotStored(index: number, cause: unknown): AppError {
  const code = (cause as NodeJS.ErrnoException).code;
  const full = code === 'ENOSPC' || code === 'EDQUOT';
  return new AppError(
    full ? 507 : 500,
    MediaErrorCode.chunkNotStored,
    `Chunk ${index} could not be written${full ? ': the disk is full' : ''}; it is listed as missing again, send it once more`,
    { chunk_index: index },
  );
}

export class WritesBehind {
  private readonly running = new Map<string, Set<Promise<void>>>();
  private readonly failures = new Map<string, AppError>();

  /** Runs the write of chunk `index` in the background; its failure is kept for the upload's next request. */
  start(uploadId: string, index: number, write: Promise<void>): void {
    const writes = this.running.get(uploadId) ?? new Set<Promise<void>>();
    this.running.set(uploadId, writes);
    const tracked = write
      .catch((error: unknown) => {
        if (!this.failures.has(uploadId)) this.failures.set(uploadId, error instanceof AppError ? error : chunkNotStored(index, error));
      })
      .finally(() => {
        writes.delete(tracked);
        if (!writes.size && this.running.get(uploadId) === writes) this.running.delete(uploadId);
      });
    writes.add(tracked);
  }

  /** Waits for the upload's writes behind; with `report`, throws the first failure among them (once). */
  async settle(uploadId: string, { report = true } = {}): Promise<void> {
    for (let writes = this.running.get(uploadId); writes?.size; writes = this.running.get(uploadId)) await Promise.all(writes);
    const failure = this.failures.get(uploadId);
    if (failure && report) {
      this.failures.delete(uploadId);
      throw failure;
    }
  }

  /** Drops what is kept about an upload that goes away. */
  forget(uploadId: string): void {
    this.failures.delete(uploadId);
  }

  /** Waits for every write behind (the server is stopping). */
  async settleAll(): Promise<void> {
    await Promise.all([...this.running.keys()].map((uploadId) => this.settle(uploadId, { report: false })));
  }
}
