// Storage in an S3-compatible bucket (AWS S3, MinIO, Ceph RGW, Aliyun OSS, Tencent COS). The AWS SDK is loaded at
// the first call, so a laptop on local storage never pays for it. Credentials come from the SDK's default chain
// (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, a profile, an instance role).
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pLimit from 'p-limit';
import type { S3Client } from '@aws-sdk/client-s3';
import { checkKey, StorageNotFound, type Body, type ByteRange, type CompletedPart, type Multipart, type ObjectInfo, type PutOptions, type Storage } from './storage.js';

export interface S3Settings {
  bucket: string;
  /** MinIO and the other S3-compatible stores: their URL; AWS itself: undefined. */
  endpoint?: string;
  region?: string;
  /** `https://endpoint/bucket/key` instead of `https://bucket.endpoint/key` (MinIO and most self-hosted stores). */
  forcePathStyle?: boolean;
}

/** Above this, a file is put as a multipart upload of several parts in parallel (lib-storage's Upload). */
const SINGLE_PUT_MAX = 64 * 1024 * 1024;
const UPLOAD_PART_SIZE = 16 * 1024 * 1024;

type Sdk = typeof import('@aws-sdk/client-s3');

const unquote = (etag: string | undefined) => (etag ?? '').replace(/"/g, '');

function isMissing(err: unknown): boolean {
  const e = err as { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.Code === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}

async function* firstBytes(body: Readable, count: number): AsyncIterable<Buffer> {
  let left = count;
  for await (const piece of body as AsyncIterable<Buffer>) {
    if (left <= 0) break;
    yield piece.length > left ? piece.subarray(0, left) : piece;
    left -= piece.length;
  }
  body.destroy();
}

export class S3Storage implements Storage {
  readonly kind = 's3';
  readonly describe: string;
  readonly multipart: Multipart;
  private loaded?: Promise<{ sdk: Sdk; client: S3Client }>;

  constructor(private readonly settings: S3Settings) {
    this.describe = `s3://${settings.bucket}${settings.endpoint ? ` at ${settings.endpoint}` : ''}`;
    this.multipart = new S3Multipart(this);
  }

  get bucket(): string {
    return this.settings.bucket;
  }

  /** The SDK and one client, created at the first use. */
  sdk(): Promise<{ sdk: Sdk; client: S3Client }> {
    this.loaded ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: this.settings.region || 'us-east-1',
        endpoint: this.settings.endpoint || undefined,
        forcePathStyle: !!this.settings.forcePathStyle,
        // The SDK's default CRC checksums (aws-chunked bodies with trailers) are not understood by every
        // S3-compatible store; checksums are sent only where the API requires them.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      }),
    }));
    return this.loaded;
  }

  private async head(key: string): Promise<ObjectInfo | undefined> {
    const { sdk, client } = await this.sdk();
    try {
      const out = await client.send(new sdk.HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { key, size: out.ContentLength ?? 0, etag: unquote(out.ETag), mtime: out.LastModified ?? new Date(0) };
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  async put(key: string, body: Body, options: PutOptions = {}): Promise<ObjectInfo> {
    checkKey(key);
    const { sdk, client } = await this.sdk();
    const size = typeof body === 'string' ? Buffer.byteLength(body) : Buffer.isBuffer(body) ? body.length : options.size;
    if (size !== undefined && size <= SINGLE_PUT_MAX) {
      await client.send(new sdk.PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentLength: size, ContentType: options.contentType }));
    } else {
      const { Upload } = await import('@aws-sdk/lib-storage');
      const upload = new Upload({ client, params: { Bucket: this.bucket, Key: key, Body: body, ContentType: options.contentType }, partSize: UPLOAD_PART_SIZE, queueSize: 4 });
      await upload.done();
    }
    const info = await this.head(key);
    if (!info) throw new Error(`${key} is missing right after it was stored`);
    return info;
  }

  async putFile(key: string, file: string, options: PutOptions & { move?: boolean } = {}): Promise<ObjectInfo> {
    const { size } = await fs.stat(file);
    const info = await this.put(key, size ? createReadStream(file, { highWaterMark: 1024 * 1024 }) : Buffer.alloc(0), { ...options, size });
    if (options.move) await fs.rm(file, { force: true });
    return info;
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    checkKey(key);
    const { sdk, client } = await this.sdk();
    try {
      const out = await client.send(new sdk.GetObjectCommand({ Bucket: this.bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }));
      const body = out.Body as Readable;
      const wanted = range ? range.end - range.start + 1 : undefined;
      // Some stores answer `bytes=0-0` with the whole object (s3rver does): never pass on more than was asked.
      return wanted !== undefined && out.ContentLength !== wanted ? Readable.from(firstBytes(body, wanted)) : body;
    } catch (err) {
      if (isMissing(err)) throw new StorageNotFound(key);
      throw err;
    }
  }

  stat(key: string): Promise<ObjectInfo | undefined> {
    return this.head(checkKey(key));
  }

  async delete(key: string): Promise<void> {
    checkKey(key);
    const { sdk, client } = await this.sdk();
    await client.send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async deletePrefix(prefix: string): Promise<void> {
    const limit = pLimit(8);
    const deletions: Promise<void>[] = [];
    for await (const object of this.list(prefix)) deletions.push(limit(() => this.delete(object.key)));
    await Promise.all(deletions);
  }

  async *list(prefix: string): AsyncIterable<ObjectInfo> {
    const { sdk, client } = await this.sdk();
    let token: string | undefined;
    do {
      const out = await client.send(new sdk.ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }));
      for (const item of out.Contents ?? []) {
        if (item.Key) yield { key: item.Key, size: item.Size ?? 0, etag: unquote(item.ETag), mtime: item.LastModified ?? new Date(0) };
      }
      token = out.IsTruncated ? out.NextContinuationToken : undefined;
    } while (token);
  }

  async copy(from: string, to: string): Promise<ObjectInfo> {
    checkKey(from);
    checkKey(to);
    const { sdk, client } = await this.sdk();
    try {
      await client.send(new sdk.CopyObjectCommand({ Bucket: this.bucket, Key: to, CopySource: `${this.bucket}/${from.split('/').map(encodeURIComponent).join('/')}` }));
    } catch (err) {
      if (isMissing(err)) throw new StorageNotFound(from);
      throw err;
    }
    return (await this.head(to))!;
  }

  localFile(): undefined {
    return undefined;
  }

  async withLocalCopy<T>(key: string, fn: (file: string) => Promise<T>): Promise<T> {
    const body = await this.get(key);
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-object-'));
    try {
      // The object's own name, so programs that look at the extension see it.
      const file = path.join(dir, path.posix.basename(key));
      await pipeline(body, createWriteStream(file, { mode: 0o600 }));
      return await fn(file);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }

  async check(): Promise<void> {
    const { sdk, client } = await this.sdk();
    await client.send(new sdk.HeadBucketCommand({ Bucket: this.bucket }));
  }

  async close(): Promise<void> {
    if (!this.loaded) return;
    (await this.loaded).client.destroy();
  }
}

class S3Multipart implements Multipart {
  constructor(private readonly storage: S3Storage) {}

  async create(key: string, options: { contentType?: string } = {}): Promise<string> {
    checkKey(key);
    const { sdk, client } = await this.storage.sdk();
    const out = await client.send(new sdk.CreateMultipartUploadCommand({ Bucket: this.storage.bucket, Key: key, ContentType: options.contentType }));
    if (!out.UploadId) throw new Error(`The store gave no upload id for ${key}`);
    return out.UploadId;
  }

  async putPart(key: string, uploadId: string, partNumber: number, body: Body, size: number): Promise<string> {
    const { sdk, client } = await this.storage.sdk();
    try {
      const out = await client.send(new sdk.UploadPartCommand({ Bucket: this.storage.bucket, Key: key, UploadId: uploadId, PartNumber: partNumber, Body: body, ContentLength: size }));
      return unquote(out.ETag);
    } catch (err) {
      if (isMissing(err) || (err as { name?: string }).name === 'NoSuchUpload') throw new StorageNotFound(`${key}?uploadId=${uploadId}`);
      throw err;
    }
  }

  async complete(key: string, uploadId: string, parts: CompletedPart[]): Promise<ObjectInfo> {
    const { sdk, client } = await this.storage.sdk();
    const ordered = [...parts].sort((a, b) => a.partNumber - b.partNumber).map((p) => ({ PartNumber: p.partNumber, ETag: `"${p.etag}"` }));
    await client.send(new sdk.CompleteMultipartUploadCommand({ Bucket: this.storage.bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: ordered } }));
    const info = await this.storage.stat(key);
    if (!info) throw new Error(`${key} is missing right after its multipart upload completed`);
    return info;
  }

  async abort(key: string, uploadId: string): Promise<void> {
    const { sdk, client } = await this.storage.sdk();
    await client.send(new sdk.AbortMultipartUploadCommand({ Bucket: this.storage.bucket, Key: key, UploadId: uploadId })).catch(() => undefined);
  }
}
