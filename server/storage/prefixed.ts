// A storage seen through a key prefix: `knowledge/` of the bucket holds the knowledge sources on S3 (knowledge-storage.ts).
import type { Readable } from 'node:stream';
import { checkKey, StorageNotFound, type Body, type ByteRange, type CompletedPart, type Multipart, type ObjectInfo, type PutOptions, type Storage } from './storage.js';

export class PrefixedStorage implements Storage {
  readonly kind: Storage['kind'];
  readonly describe: string;
  readonly multipart: Multipart;

  /** prefix ends with `/`. */
  constructor(
    private readonly inner: Storage,
    private readonly prefix: string,
  ) {
    this.kind = inner.kind;
    this.describe = `${inner.describe} under ${prefix}`;
    const full = (key: string) => this.full(key);
    this.multipart = {
      create: (key, options) => inner.multipart.create(full(key), options),
      putPart: (key, uploadId, partNumber, body, size) => inner.multipart.putPart(full(key), uploadId, partNumber, body, size),
      complete: async (key, uploadId, parts: CompletedPart[]) => this.own(await inner.multipart.complete(full(key), uploadId, parts)),
      abort: (key, uploadId) => inner.multipart.abort(full(key), uploadId),
    };
  }

  private full(key: string): string {
    return `${this.prefix}${checkKey(key)}`;
  }

  private own(info: ObjectInfo): ObjectInfo {
    return { ...info, key: info.key.slice(this.prefix.length) };
  }

  private async mapped<T>(key: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      throw err instanceof StorageNotFound ? new StorageNotFound(key) : err;
    }
  }

  async put(key: string, body: Body, options?: PutOptions): Promise<ObjectInfo> {
    return this.own(await this.inner.put(this.full(key), body, options));
  }

  async putFile(key: string, file: string, options?: PutOptions & { move?: boolean }): Promise<ObjectInfo> {
    return this.own(await this.inner.putFile(this.full(key), file, options));
  }

  get(key: string, range?: ByteRange): Promise<Readable> {
    return this.mapped(key, () => this.inner.get(this.full(key), range));
  }

  async stat(key: string): Promise<ObjectInfo | undefined> {
    const info = await this.inner.stat(this.full(key));
    return info && this.own(info);
  }

  delete(key: string): Promise<void> {
    return this.inner.delete(this.full(key));
  }

  deletePrefix(prefix: string): Promise<void> {
    return this.inner.deletePrefix(`${this.prefix}${prefix}`);
  }

  async *list(prefix: string): AsyncIterable<ObjectInfo> {
    for await (const info of this.inner.list(`${this.prefix}${prefix}`)) yield this.own(info);
  }

  async copy(from: string, to: string): Promise<ObjectInfo> {
    return this.own(await this.mapped(from, () => this.inner.copy(this.full(from), this.full(to))));
  }

  withLocalCopy<T>(key: string, fn: (file: string) => Promise<T>): Promise<T> {
    return this.mapped(key, () => this.inner.withLocalCopy(this.full(key), fn));
  }

  localFile(key: string): string | undefined {
    return this.inner.localFile(this.full(key));
  }

  check(): Promise<void> {
    return this.inner.check();
  }

  /** The inner storage belongs to whoever made it. */
  async close(): Promise<void> {}
}
