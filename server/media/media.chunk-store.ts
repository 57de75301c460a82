// Where the chunks of a chunked upload go, behind one interface chosen by the storage in use:
// - a folder (the laptop): the file DATA_DIR/media/chunks/<upload_id>/file.part, each chunk written at its offset
//   as it arrives (media.assembly.ts: O_DIRECT, write-behind, background flushes), moved into place by a rename;
// - an S3 bucket (central nodes): an S3 multipart upload straight to the media's key. The contract's 5,242,880-byte
//   chunk is S3's minimum part size, so chunk i is part i + 1; its ETag is kept in the chunk row, and complete on
//   any node completes the multipart upload from those rows. Nothing is kept on the node's disk.
import { createReadStream } from 'node:fs';
import { LocalStorage, keys, type Storage } from '../storage/index.js';
import { mediaDirs, type MediaDirs } from './media.storage.js';
import { uploadFiles, type ChunkSource, type OnDurable } from './media.assembly.js';
import { AppError } from '../http/errors.js';
import { MediaErrorCode } from '../../contract/media.js';

/** What a chunk store needs to know of a session. */
export interface ChunkTarget {
  id: string;
  /** The object the upload becomes. */
  key: string;
  /** The store's multipart upload id (S3). */
  multipart_id: string | null;
}

export interface StoredChunk {
  written: number;
  /** The part's ETag (S3); null where the chunk was written in place. */
  etag: string | null;
  /** Durable once stored (S3), or only after the next flush (a local file, see UploadFiles.onDurable). */
  durable: boolean;
}

export interface ChunkStore {
  /** Chunks can be answered before their write ends (media.write-behind.ts): only where one process owns the upload. */
  readonly writesBehind: boolean;
  allocateBuffer(size: number): Promise<Buffer>;
  /** Prepares a new upload; returns the multipart upload id where there is one. */
  open(target: Omit<ChunkTarget, 'multipart_id'>): Promise<string | null>;
  write(target: ChunkTarget, index: number, offset: number, size: number, source: ChunkSource): Promise<StoredChunk>;
  /** Assembles the chunks into target.key and checks the length; `parts` are the recorded chunks in index order. */
  finish(target: ChunkTarget, size: number, parts: { index: number; etag: string | null }[]): Promise<void>;
  /** Discards what an unfinished upload holds (the finished object is not touched). */
  discard(target: ChunkTarget): Promise<void>;
  /** Upload ids that have something stored, for the sweep of uploads without a session. */
  leftovers(): Promise<string[]>;
  set onDurable(callback: OnDurable);
  closeAll(): Promise<void>;
}

/** The laptop's fast path: one file per upload, written at offsets (media.assembly.ts). */
class FileChunkStore implements ChunkStore {
  readonly writesBehind = true;
  constructor(
    private readonly storage: LocalStorage,
    private readonly dirs: MediaDirs,
  ) {}

  private get files() {
    return uploadFiles(this.dirs);
  }

  allocateBuffer(size: number) {
    return this.files.allocateBuffer(size);
  }

  async open(target: Omit<ChunkTarget, 'multipart_id'>) {
    await this.files.create(target.id);
    return null;
  }

  async write(target: ChunkTarget, _index: number, offset: number, _size: number, source: ChunkSource): Promise<StoredChunk> {
    return { written: await this.files.writeAt(target.id, source, offset), etag: null, durable: false };
  }

  async finish(target: ChunkTarget, size: number) {
    const assembled = await this.files.finish(target.id, size);
    if (target.key !== keys.upload(target.id)) await this.storage.putFile(target.key, assembled, { move: true });
  }

  discard(target: ChunkTarget) {
    return this.files.remove(target.id);
  }

  async leftovers() {
    const ids = new Set<string>();
    for await (const object of this.storage.list(keys.uploadsPrefix)) ids.add(object.key.split('/')[2]!);
    return [...ids];
  }

  set onDurable(callback: OnDurable) {
    this.files.onDurable = callback;
  }

  closeAll() {
    return this.files.closeAll();
  }
}

/** Central nodes: an S3 multipart upload per chunked upload, a part per chunk. */
class MultipartChunkStore implements ChunkStore {
  readonly writesBehind = false;
  constructor(private readonly storage: Storage) {}

  async allocateBuffer(size: number) {
    return Buffer.allocUnsafe(size);
  }

  open(target: Omit<ChunkTarget, 'multipart_id'>) {
    return this.storage.multipart.create(target.key);
  }

  async write(target: ChunkTarget, index: number, _offset: number, size: number, source: ChunkSource): Promise<StoredChunk> {
    const body = source.kind === 'memory' ? source.bytes : source.kind === 'file' ? createReadStream(source.path, { highWaterMark: 1024 * 1024 }) : source.body;
    const etag = await this.storage.multipart.putPart(target.key, target.multipart_id!, index + 1, body, size);
    return { written: size, etag, durable: true };
  }

  async finish(target: ChunkTarget, size: number, parts: { index: number; etag: string | null }[]) {
    if (!parts.length) {
      // An empty file has no chunk, and a multipart upload needs at least one part.
      await this.storage.multipart.abort(target.key, target.multipart_id!);
      await this.storage.put(target.key, Buffer.alloc(0));
      return;
    }
    const info = await this.storage.multipart.complete(
      target.key,
      target.multipart_id!,
      parts.map((p) => ({ partNumber: p.index + 1, etag: p.etag ?? '' })),
    );
    if (info.size !== size) {
      await this.storage.delete(target.key);
      throw new AppError(400, MediaErrorCode.sizeMismatch, `The chunks add up to ${info.size} bytes, not the declared ${size}`);
    }
  }

  async discard(target: ChunkTarget) {
    if (target.multipart_id) await this.storage.multipart.abort(target.key, target.multipart_id);
  }

  async leftovers() {
    return [];
  }

  set onDurable(_callback: OnDurable) {}

  async closeAll() {}
}

const stores = new WeakMap<Storage, ChunkStore>();

/** The chunk store of a storage (one per storage, shared by its routes and the sweep). */
export function chunkStoreFor(storage: Storage, dataDir: string): ChunkStore {
  let store = stores.get(storage);
  if (!store) stores.set(storage, (store = storage instanceof LocalStorage ? new FileChunkStore(storage, mediaDirs(dataDir)) : new MultipartChunkStore(storage)));
  return store;
}
