// One interface for every user file (media, chunked-upload parts, recordings, models, pack files, sync staging):
// callers name objects by key (`media/files/<storage_key>`, see keys.ts), never by path. Two implementations: a
// folder (local.ts, the laptop's DATA_DIR with today's layout) and an S3-compatible bucket (s3.ts, central nodes).
import type { Readable } from 'node:stream';

export interface ObjectInfo {
  key: string;
  size: number;
  /** Changes whenever the bytes change (S3's ETag without quotes; size and mtime for a local file). */
  etag: string;
  mtime: Date;
}

/** Inclusive byte positions, as in HTTP's Range. */
export interface ByteRange {
  start: number;
  end: number;
}

export type Body = Readable | Buffer | string;

export interface PutOptions {
  contentType?: string;
  /** Known length of a stream body (lets S3 put it in one request). */
  size?: number;
}

export interface CompletedPart {
  partNumber: number;
  etag: string;
}

/**
 * Multipart upload of one object, in S3's terms: parts are numbered from 1, uploaded in any order and again (the
 * last copy wins), every part but the last at least 5 MiB; complete assembles them in number order.
 */
export interface Multipart {
  create(key: string, options?: { contentType?: string }): Promise<string>;
  /** Returns the part's ETag, needed by complete. */
  putPart(key: string, uploadId: string, partNumber: number, body: Body, size: number): Promise<string>;
  complete(key: string, uploadId: string, parts: CompletedPart[]): Promise<ObjectInfo>;
  /** Best effort: stores that do not implement it keep the parts until their own clean-up (a bucket lifecycle rule). */
  abort(key: string, uploadId: string): Promise<void>;
}

export interface Storage {
  readonly kind: 'local' | 's3';
  /** A human description for logs and the readiness probe (`DATA_DIR /x` or `s3://bucket`). */
  readonly describe: string;
  /** Stores the whole body under key, atomically: readers see the old object or the new one, never a part. */
  put(key: string, body: Body, options?: PutOptions): Promise<ObjectInfo>;
  /** Stores a file from the local disk; with `move` the source is gone afterwards (a rename where possible). */
  putFile(key: string, file: string, options?: PutOptions & { move?: boolean }): Promise<ObjectInfo>;
  /** The object's bytes, or the range of them; throws StorageNotFound. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  /** undefined when there is no such object. */
  stat(key: string): Promise<ObjectInfo | undefined>;
  /** Removing a missing object is not an error. */
  delete(key: string): Promise<void>;
  /** Removes every object whose key starts with prefix. */
  deletePrefix(prefix: string): Promise<void>;
  /** Every object whose key starts with prefix, in no particular order. */
  list(prefix: string): AsyncIterable<ObjectInfo>;
  /** Server-side copy (S3 CopyObject; a file copy locally). */
  copy(from: string, to: string): Promise<ObjectInfo>;
  /**
   * Runs fn with a path on the local disk holding the object's bytes, for programs that need a file (ffmpeg,
   * whisper.cpp, the extractors, sherpa-onnx, node-llama-cpp). Locally the real file (do not change or remove it);
   * on S3 a temporary copy, removed when fn settles. Throws StorageNotFound.
   */
  withLocalCopy<T>(key: string, fn: (file: string) => Promise<T>): Promise<T>;
  /**
   * The file on this machine's disk that holds the object, when the storage is a folder (read it in place, do not
   * change it); undefined for a remote store. For readers that keep a file open for long (the model runtimes).
   */
  localFile(key: string): string | undefined;
  multipart: Multipart;
  /** Checks that the store answers (readiness). */
  check(): Promise<void>;
  close(): Promise<void>;
}

export class StorageNotFound extends Error {
  readonly code = 'storage_not_found';
  constructor(readonly key: string) {
    super(`No stored object ${key}`);
  }
}

export const isNotFound = (err: unknown): err is StorageNotFound => err instanceof StorageNotFound;

/** Keys are relative slash-separated paths: no empty, `.` or `..` segment, no backslash, no leading slash. */
export function checkKey(key: string): string {
  if (!key || key.startsWith('/') || key.includes('\\') || key.includes('\0') || key.split('/').some((s) => s === '' || s === '.' || s === '..')) {
    throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
  }
  return key;
}

/** Runs fn with local files of several objects at once (withLocalCopy, nested). */
export function withLocalCopies<T>(storage: Storage, keys: string[], fn: (files: string[]) => Promise<T>): Promise<T> {
  const step = (i: number, files: string[]): Promise<T> => (i === keys.length ? fn(files) : storage.withLocalCopy(keys[i]!, (file) => step(i + 1, [...files, file])));
  return step(0, []);
}
