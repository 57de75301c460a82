// The one sha256 of a file (or any stream) in the server: media checks, sync, packs and models all use it.
import crypto from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Transform, type Readable } from 'node:stream';
import type { Storage } from './storage.js';

export async function sha256OfStream(input: Readable | AsyncIterable<Buffer>): Promise<{ sha256: string; size: number }> {
  const hash = crypto.createHash('sha256');
  let size = 0;
  for await (const chunk of input as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { sha256: hash.digest('hex'), size };
}

/** sha256 and size of a file on the local disk. */
export const sha256OfFile = (file: string) => sha256OfStream(createReadStream(file, { highWaterMark: 1024 * 1024 }));

/** sha256 and size of a stored object. */
export const sha256OfObject = async (storage: Storage, key: string) => sha256OfStream(await storage.get(key));

/** A pass-through that hashes what flows through it (for storing and hashing in one pass). */
export function sha256Tap(): { stream: Transform; digest(): string } {
  const hash = crypto.createHash('sha256');
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  return { stream, digest: () => hash.digest('hex') };
}
