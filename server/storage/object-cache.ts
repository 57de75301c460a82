// A node's own copies of stored objects that a native program must open as a file for a long time (whisper.cpp,
// sherpa-onnx and node-llama-cpp read models), kept by sha256 in DATA_DIR/cache/<area>/<sha256><ext>. A cache, not
// user files: every entry is a copy of an object in the storage and may be removed at any time (the next use fetches
// it again). A folder storage has the file already, so nothing is copied: the object's own file is used in place.
import crypto from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { mkdirPrivate, PRIVATE_FILE_MODE } from '../data-dir.js';
import { sha256Tap } from './sha256.js';
import type { Storage } from './storage.js';

/** Fetches in progress in this process, by target: two users of one model wait for one download. */
const fetching = new Map<string, Promise<{ file: string; sha256: string }>>();

export class ObjectCache {
  constructor(
    private readonly storage: Storage,
    /** DATA_DIR/cache/<area>. */
    readonly dir: string,
  ) {}

  /** Where the copy of an object with this sha256 is (or would be) kept. */
  entry(sha256: string, ext: string): string {
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error(`not a sha256: ${sha256}`);
    return path.join(this.dir, `${sha256}${ext}`);
  }

  /** The object's file without fetching it: in place for a folder storage, else the cache's copy if there is one. */
  async present(key: string, sha256: string | undefined): Promise<string | undefined> {
    const local = this.storage.localFile(key);
    if (local) return local;
    if (!sha256) return undefined;
    const file = this.entry(sha256, path.extname(key));
    return (await fs.stat(file).then((s) => s.isFile(), () => false)) ? file : undefined;
  }

  /**
   * A file holding the object's bytes, fetching it into the cache when this node has no copy. The bytes are hashed
   * on the way; with an expected sha256, other bytes (the object replaced since it was recorded) are refused.
   */
  async file(key: string, expected: string | undefined): Promise<{ file: string; sha256: string | undefined }> {
    const present = await this.present(key, expected);
    if (present) return { file: present, sha256: expected };
    const id = `${key}:${expected ?? ''}`;
    let pending = fetching.get(id);
    if (!pending) {
      pending = this.fetch(key, expected).finally(() => fetching.delete(id));
      fetching.set(id, pending);
    }
    return pending;
  }

  private async fetch(key: string, expected: string | undefined): Promise<{ file: string; sha256: string }> {
    await mkdirPrivate(this.dir);
    const temp = path.join(this.dir, `.fetch-${crypto.randomBytes(6).toString('hex')}`);
    try {
      const tap = sha256Tap();
      await pipeline(await this.storage.get(key), tap.stream, createWriteStream(temp, { mode: PRIVATE_FILE_MODE }));
      const sha256 = tap.digest();
      if (expected && sha256 !== expected) throw new Error(`${key} has sha256 ${sha256}, not the recorded ${expected}: it was replaced in the storage`);
      const file = this.entry(sha256, path.extname(key));
      await fs.rename(temp, file);
      return { file, sha256 };
    } finally {
      await fs.rm(temp, { force: true });
    }
  }

  /** Drops this node's copy (the object itself is untouched). */
  async evict(key: string, sha256: string | undefined): Promise<void> {
    if (!this.storage.localFile(key) && sha256) await fs.rm(this.entry(sha256, path.extname(key)), { force: true });
  }
}
