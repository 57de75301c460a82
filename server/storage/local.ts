// Storage in a folder: the key is the path below the root (DATA_DIR), so a laptop's files stay exactly where earlier
// versions put them (media/files/<storage_key>, …). Writes go to a temporary name beside the target, are flushed,
// then renamed: a reader or a power cut never sees half an object.
import crypto from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { mkdirPrivate, PRIVATE_FILE_MODE } from '../data-dir.js';
import { checkKey, StorageNotFound, type Body, type ByteRange, type CompletedPart, type Multipart, type ObjectInfo, type PutOptions, type Storage } from './storage.js';

/** Temporary names of writes in progress: `<name>.tmp-<random>`; never listed. */
const TEMP_MARK = '.tmp-';
/** Parts of local multipart uploads, below the root. */
const MULTIPART_DIR = '.multipart';

const isMissing = (err: unknown) => ['ENOENT', 'ENOTDIR'].includes((err as NodeJS.ErrnoException).code ?? '');

async function flush(target: string, kind: 'file' | 'folder'): Promise<void> {
  // A folder cannot be opened for fsync on every platform (Windows).
  const handle = await fs.open(target, kind === 'file' ? 'r+' : 'r').catch((err: unknown) => {
    if (kind === 'folder') return undefined;
    throw err;
  });
  try {
    await handle?.sync();
  } finally {
    await handle?.close();
  }
}

export class LocalStorage implements Storage {
  readonly kind = 'local';
  readonly describe: string;
  readonly multipart: Multipart;

  constructor(readonly root: string) {
    this.describe = `folder ${root}`;
    this.multipart = new LocalMultipart(this);
  }

  /** The file of a key. Only for code that is itself part of the local layer (the chunked upload's fast path). */
  pathOf(key: string): string {
    return path.join(this.root, ...checkKey(key).split('/'));
  }

  private info(key: string, stat: { size: number; mtimeMs: number; mtime: Date }): ObjectInfo {
    return { key, size: stat.size, etag: `${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}`, mtime: stat.mtime };
  }

  async put(key: string, body: Body, _options?: PutOptions): Promise<ObjectInfo> {
    const target = this.pathOf(key);
    await mkdirPrivate(path.dirname(target));
    const temp = `${target}${TEMP_MARK}${crypto.randomBytes(6).toString('hex')}`;
    try {
      if (typeof body === 'string' || Buffer.isBuffer(body)) await fs.writeFile(temp, body, { mode: PRIVATE_FILE_MODE });
      else await pipeline(body, createWriteStream(temp, { mode: PRIVATE_FILE_MODE }));
      return await this.commit(key, temp, target);
    } catch (err) {
      await fs.rm(temp, { force: true });
      throw err;
    }
  }

  async putFile(key: string, file: string, options: PutOptions & { move?: boolean } = {}): Promise<ObjectInfo> {
    if (!options.move) return this.put(key, createReadStream(file));
    const target = this.pathOf(key);
    await mkdirPrivate(path.dirname(target));
    // Whoever wrote it (formidable, a pack import) used the default mode; stored files are owner-only.
    await fs.chmod(file, PRIVATE_FILE_MODE);
    try {
      return await this.commit(key, file, target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      const info = await this.put(key, createReadStream(file));
      await fs.rm(file, { force: true });
      return info;
    }
  }

  /** Flushes the written file, renames it into place and flushes the folder's entry. */
  private async commit(key: string, written: string, target: string): Promise<ObjectInfo> {
    await flush(written, 'file');
    await fs.rename(written, target);
    await flush(path.dirname(target), 'folder');
    return this.info(key, await fs.stat(target));
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const file = this.pathOf(key);
    const handle = await fs.open(file, 'r').catch((err: unknown) => {
      throw isMissing(err) ? new StorageNotFound(key) : err;
    });
    if ((await handle.stat()).isDirectory()) {
      await handle.close();
      throw new StorageNotFound(key);
    }
    // Large reads: fewer, bigger writes to the socket (a media file is hundreds of MB).
    return createReadStream('', { fd: handle, highWaterMark: 1024 * 1024, ...(range ?? {}) });
  }

  async stat(key: string): Promise<ObjectInfo | undefined> {
    const stat = await fs.stat(this.pathOf(key)).catch((err: unknown) => {
      if (isMissing(err)) return undefined;
      throw err;
    });
    return stat?.isFile() ? this.info(key, stat) : undefined;
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.pathOf(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<void> {
    if (prefix.endsWith('/')) {
      await fs.rm(this.pathOf(prefix.slice(0, -1)), { recursive: true, force: true });
      return;
    }
    for await (const object of this.list(prefix)) await this.delete(object.key);
  }

  async *list(prefix: string): AsyncIterable<ObjectInfo> {
    // The deepest folder the prefix names for sure; entries below it are filtered by the whole prefix.
    const slash = prefix.lastIndexOf('/');
    const base = slash < 0 ? '' : prefix.slice(0, slash);
    yield* this.walk(base, prefix);
  }

  private async *walk(dirKey: string, prefix: string): AsyncIterable<ObjectInfo> {
    const dir = dirKey ? this.pathOf(dirKey) : this.root;
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch((err: unknown) => {
      if (isMissing(err)) return [];
      throw err;
    });
    for (const entry of entries) {
      const key = dirKey ? `${dirKey}/${entry.name}` : entry.name;
      if (entry.name.includes(TEMP_MARK) || key === MULTIPART_DIR) continue;
      if (entry.isDirectory()) {
        if (key.startsWith(prefix) || prefix.startsWith(`${key}/`)) yield* this.walk(key, prefix);
      } else if (entry.isFile() && key.startsWith(prefix)) {
        const stat = await fs.stat(path.join(dir, entry.name)).catch(() => undefined);
        if (stat) yield this.info(key, stat);
      }
    }
  }

  async copy(from: string, to: string): Promise<ObjectInfo> {
    return this.put(to, await this.get(from));
  }

  async withLocalCopy<T>(key: string, fn: (file: string) => Promise<T>): Promise<T> {
    if (!(await this.stat(key))) throw new StorageNotFound(key);
    return fn(this.pathOf(key));
  }

  localFile(key: string): string {
    return this.pathOf(key);
  }

  async check(): Promise<void> {
    await mkdirPrivate(this.root);
    await fs.access(this.root, fs.constants.W_OK);
  }

  async close(): Promise<void> {}
}

/** Parts as files in .multipart/<upload id>/<part number>; complete concatenates them into the object. */
class LocalMultipart implements Multipart {
  constructor(private readonly storage: LocalStorage) {}

  private dir(uploadId: string): string {
    if (!/^[0-9a-f]{32}$/.test(uploadId)) throw new StorageNotFound(`${MULTIPART_DIR}/${uploadId}`);
    return path.join(this.storage.root, MULTIPART_DIR, uploadId);
  }

  async create(): Promise<string> {
    const uploadId = crypto.randomBytes(16).toString('hex');
    await mkdirPrivate(this.dir(uploadId));
    return uploadId;
  }

  async putPart(_key: string, uploadId: string, partNumber: number, body: Body): Promise<string> {
    const dir = this.dir(uploadId);
    if (!(await fs.stat(dir).catch(() => undefined))) throw new StorageNotFound(`${MULTIPART_DIR}/${uploadId}`);
    const info = await this.storage.put(`${MULTIPART_DIR}/${uploadId}/${partNumber}`, body);
    return info.etag;
  }

  async complete(key: string, uploadId: string, parts: CompletedPart[]): Promise<ObjectInfo> {
    const dir = this.dir(uploadId);
    const ordered = [...parts].sort((a, b) => a.partNumber - b.partNumber);
    for (const part of ordered) {
      const stored = await this.storage.stat(`${MULTIPART_DIR}/${uploadId}/${part.partNumber}`);
      if (stored?.etag !== part.etag) throw new Error(`Part ${part.partNumber} of upload ${uploadId} is missing or has another ETag`);
    }
    const storage = this.storage;
    async function* concatenated() {
      for (const part of ordered) yield* (await storage.get(`${MULTIPART_DIR}/${uploadId}/${part.partNumber}`)) as AsyncIterable<Buffer>;
    }
    const info = await this.storage.put(key, Readable.from(concatenated()));
    await fs.rm(dir, { recursive: true, force: true });
    return info;
  }

  async abort(_key: string, uploadId: string): Promise<void> {
    await fs.rm(this.dir(uploadId), { recursive: true, force: true });
  }
}
