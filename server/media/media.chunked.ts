// Chunked (resumable) uploads: the session and the list of received chunks are rows, the bytes are in the file the
// upload assembles (media.assembly.ts), so a client can carry on after a dropped connection or a restart.
import crypto from 'node:crypto';
import type { Db } from '../db/knex.js';
import type { User } from '../../contract/users.js';
import {
  MEDIA_CHUNK_SIZE,
  MEDIA_CHUNKED_MAX_BYTES,
  MediaErrorCode,
  type ChunkAccepted,
  type MediaBindType,
  type MediaFile,
  type UploadInitResult,
  type UploadSession,
  type UploadSessionStatus,
} from '../../contract/media.js';
import { AppError, notFound, payloadTooLarge } from '../http/errors.js';
import { countOf, toNullableNumber, toNumber } from '../db/rows.js';
import { now } from '../db/time.js';
import { readConfigValue } from '../system/config.service.js';
import { displayName } from './media.names.js';
import { addMedia, checkBinding, getMedia } from './media.service.js';
import { newStorageKey } from './media.storage.js';
import type { ChunkSource } from './media.assembly.js';
import type { ChunkTarget } from './media.chunk-store.js';
import type { MediaStore } from './media.store.js';
import { keys } from '../storage/index.js';
import { WritesBehind } from './media.write-behind.js';
import type { BindingInput, UploadInitInput } from './media.schema.js';

interface SessionRow {
  id: string;
  user_id: number;
  filename: string;
  file_size: number | string;
  chunk_size: number;
  chunk_count: number;
  bind_type: MediaBindType;
  bind_id: number | null;
  status: UploadSessionStatus;
  media_id: number | null;
  /** `media`, or what another domain opened it for (e.g. `audio_model`). */
  purpose: string;
  /** Set when the opener gave the checksum the completed file must have. */
  expected_sha256: string | null;
  /** The media's storage key, generated at init (a media upload); null for other purposes. */
  storage_key: string | null;
  /** The storage's multipart upload (S3). */
  multipart_id: string | null;
  created_at: string;
  updated_at: string;
}

/** The session as another domain sees it when completing its own upload. */
export type UploadSessionRow = Readonly<SessionRow>;

const HOUR_MS = 3_600_000;
/** A session's last activity is recorded at most this often while its chunks arrive (the TTL counts in hours). */
const TOUCH_EVERY_MS = 60_000;

export const chunkCountFor = (fileSize: number): number => Math.ceil(fileSize / MEDIA_CHUNK_SIZE);

/** Every chunk is chunk_size bytes except the last, which holds the remainder. */
function expectedChunkSize(session: SessionRow, index: number): number {
  const size = toNumber(session.file_size);
  return index < session.chunk_count - 1 ? session.chunk_size : size - session.chunk_size * (session.chunk_count - 1);
}

const ttlMs = async (db: Db): Promise<number> => (await readConfigValue<number>(db, 'upload_session_ttl_hours')) * HOUR_MS;

const expiresAt = (row: SessionRow, ttl: number): string => new Date(Date.parse(row.updated_at) + ttl).toISOString();

/** Chunk writes still running behind their answers (media.write-behind.ts). */
export const writesBehind = new WritesBehind();

/** The object a session becomes: the media's key, or for other purposes the upload's own (the purpose moves it). */
export const uploadObjectKey = (row: Pick<SessionRow, 'id' | 'storage_key'>): string => (row.storage_key ? keys.media(row.storage_key) : keys.upload(row.id));

const targetOf = (row: SessionRow): ChunkTarget => ({ id: row.id, key: uploadObjectKey(row), multipart_id: row.multipart_id });

async function discardSession(db: Db, media: MediaStore, row: SessionRow): Promise<void> {
  await db('upload_sessions').where({ id: row.id }).delete();
  writesBehind.forget(row.id);
  await media.chunks.discard(targetOf(row));
}

export async function initUpload(db: Db, media: MediaStore, user: User, input: UploadInitInput): Promise<UploadInitResult> {
  await checkBinding(db, input);
  return openUploadSession(db, media, user, { filename: displayName(input.filename), file_size: input.file_size, bind_type: input.bind_type, bind_id: input.bind_id ?? null, purpose: 'media' });
}

/** Opens a chunked upload for any purpose; its chunks go through the media chunk endpoints. */
export async function openUploadSession(
  db: Db,
  media: MediaStore,
  user: User,
  input: { filename: string; file_size: number; purpose: string; bind_type?: MediaBindType; bind_id?: number | null; expected_sha256?: string },
): Promise<UploadInitResult> {
  if (input.file_size > MEDIA_CHUNKED_MAX_BYTES) throw payloadTooLarge(`A chunked upload is limited to ${MEDIA_CHUNKED_MAX_BYTES} bytes`);
  const stamp = now();
  const row: SessionRow = {
    id: crypto.randomUUID(),
    user_id: user.id,
    filename: input.filename,
    file_size: input.file_size,
    chunk_size: MEDIA_CHUNK_SIZE,
    chunk_count: chunkCountFor(input.file_size),
    bind_type: input.bind_type ?? 'none',
    bind_id: input.bind_id ?? null,
    status: 'open',
    media_id: null,
    purpose: input.purpose,
    expected_sha256: input.expected_sha256 ?? null,
    storage_key: input.purpose === 'media' ? newStorageKey() : null,
    multipart_id: null,
    created_at: stamp,
    updated_at: stamp,
  };
  // Row first, storage second: stored chunks without a row are an orphan the sweep may remove at any time.
  await db('upload_sessions').insert(row);
  row.multipart_id = await media.chunks.open(targetOf(row));
  if (row.multipart_id) await db('upload_sessions').where({ id: row.id }).update({ multipart_id: row.multipart_id });
  return { upload_id: row.id, chunk_size: row.chunk_size, chunk_count: row.chunk_count, expires_at: expiresAt(row, await ttlMs(db)) };
}

/** The caller's session; another user's, an unknown or an expired one is a 404 (an expired one is removed). */
async function findSession(db: Db, media: MediaStore, user: User, uploadId: string): Promise<{ row: SessionRow; ttl: number }> {
  const row: SessionRow | undefined = await db('upload_sessions').where({ id: uploadId, user_id: user.id }).first();
  if (!row) throw notFound('Upload session');
  const ttl = await ttlMs(db);
  if (row.status !== 'merging' && Date.parse(row.updated_at) + ttl < Date.now()) {
    await discardSession(db, media, row);
    throw notFound('Upload session (expired)');
  }
  return { row, ttl };
}

const receivedIndexes = async (db: Db, uploadId: string): Promise<number[]> =>
  (await db('upload_chunks').where({ upload_id: uploadId }).orderBy('chunk_index').pluck('chunk_index')).map(Number);

function missingFrom(count: number, received: number[]): number[] {
  const have = new Set(received);
  return Array.from({ length: count }, (_, i) => i).filter((i) => !have.has(i));
}

export async function describeUpload(db: Db, media: MediaStore, user: User, uploadId: string): Promise<UploadSession> {
  const { row, ttl } = await findSession(db, media, user, uploadId);
  await writesBehind.settle(row.id, { report: false });
  const received = row.status === 'completed' ? [] : await receivedIndexes(db, row.id);
  return {
    upload_id: row.id,
    chunk_size: row.chunk_size,
    chunk_count: row.chunk_count,
    expires_at: expiresAt(row, ttl),
    filename: row.filename,
    file_size: toNumber(row.file_size),
    bind_type: row.bind_type,
    bind_id: toNullableNumber(row.bind_id),
    status: row.status,
    received: row.status === 'completed' ? Array.from({ length: row.chunk_count }, (_, i) => i) : received,
    missing: row.status === 'completed' ? [] : missingFrom(row.chunk_count, received),
    media_id: toNullableNumber(row.media_id),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const busy = (row: SessionRow) =>
  new AppError(409, MediaErrorCode.uploadBusy, row.status === 'completed' ? 'This upload is already completed' : 'This upload is being completed');

export interface ReceivedChunk {
  size: number;
  source: ChunkSource;
  /**
   * For bytes in a pooled buffer: takes the buffer over and returns what gives it back, so that the chunk is written
   * behind its answer. Without it the chunk is written before the answer.
   */
  keep?: () => () => void;
}

/** Chunks being written right now, so that two copies of one chunk never write over each other. */
const writing = new Set<string>();

/**
 * Stores one chunk; chunks may come in any order and be sent again (the new copy replaces the old one). A chunk is
 * recorded only once all its bytes are in place, and a copy being written is not recorded: a transfer cut short
 * (or a crash) leaves the chunk missing, never half-written and listed as received. A chunk in a pooled buffer is
 * answered once received and written behind (media.write-behind.ts); the upload's next request waits for that write.
 */
export async function acceptChunk(db: Db, media: MediaStore, user: User, uploadId: string, index: number, chunk: ReceivedChunk): Promise<ChunkAccepted> {
  const { row } = await findSession(db, media, user, uploadId);
  if (row.status !== 'open') throw busy(row);
  if (index >= row.chunk_count) {
    throw new AppError(400, MediaErrorCode.chunkOutOfRange, `chunk_index ${index} is out of range: this upload has ${row.chunk_count} chunk(s), numbered from 0`);
  }
  const expected = expectedChunkSize(row, index);
  const sizeMismatch = (received: number) =>
    new AppError(400, MediaErrorCode.chunkSizeMismatch, `Chunk ${index} must be ${expected} bytes, got ${received}`, { expected, received });
  if (chunk.size !== expected) throw sizeMismatch(chunk.size);
  await writesBehind.settle(row.id);
  const key = `${row.id}/${index}`;
  if (writing.has(key)) throw new AppError(409, MediaErrorCode.uploadBusy, `Chunk ${index} is being received on another connection`);
  writing.add(key);
  const store = async () => {
    await db('upload_chunks').where({ upload_id: row.id, chunk_index: index }).delete();
    const stored = await media.chunks.write(targetOf(row), index, index * row.chunk_size, expected, chunk.source);
    if (stored.written !== expected) throw sizeMismatch(stored.written);
    await recordChunk(db, row, index, expected, stored);
  };
  if (chunk.source.kind === 'memory' && chunk.keep && media.chunks.writesBehind) {
    const giveBack = chunk.keep();
    const done = () => {
      writing.delete(key);
      giveBack();
    };
    writesBehind.start(row.id, index, store().finally(done));
  } else {
    await store().finally(() => writing.delete(key));
  }
  // This chunk counts as received whether or not its write behind has been recorded yet.
  const others = countOf(await db('upload_chunks').where({ upload_id: row.id }).whereNot({ chunk_index: index }).count({ count: '*' }).first());
  return { upload_id: row.id, chunk_index: index, size: expected, received_count: others + 1, chunk_count: row.chunk_count };
}

/** A chunk whose bytes are in place: listed as received (not yet flushed), and the session's activity noted. */
async function recordChunk(db: Db, row: SessionRow, index: number, size: number, stored: { etag: string | null; durable: boolean }): Promise<void> {
  const stamp = now();
  await db('upload_chunks')
    .insert({ upload_id: row.id, chunk_index: index, size, received_at: stamp, on_disk: stored.durable, etag: stored.etag })
    .onConflict(['upload_id', 'chunk_index'])
    .merge(['size', 'received_at', 'on_disk', 'etag']);
  if (Date.parse(stamp) - Date.parse(row.updated_at) >= TOUCH_EVERY_MS) await db('upload_sessions').where({ id: row.id }).update({ updated_at: stamp });
}

/** What an upload of one purpose turns into once complete. */
export interface UploadPurpose<R> {
  purpose: string;
  /** Makes the result from the assembled file (moving it away); `media_id` is recorded for media. */
  /** `key`: the stored object the upload became (uploadObjectKey). */
  finish(key: string, session: UploadSessionRow): Promise<{ result: R; media_id?: number }>;
  /** The result of a session completed before (a client retrying complete after its connection dropped). */
  completed(session: UploadSessionRow): Promise<R>;
}

/**
 * Completes an upload once every chunk is recorded. Completing a completed upload again returns the same result
 * (created: false), so a client whose connection dropped during complete can retry.
 */
export async function completeUploadFor<R>(db: Db, media: MediaStore, user: User, uploadId: string, purpose: UploadPurpose<R>): Promise<{ result: R; created: boolean }> {
  const { row } = await findSession(db, media, user, uploadId);
  if ((row.purpose ?? 'media') !== purpose.purpose) {
    throw new AppError(409, MediaErrorCode.wrongUploadPurpose, `This upload was opened for ${row.purpose}, not ${purpose.purpose}: complete it where it was opened`);
  }
  if (row.status === 'completed') return { result: await purpose.completed(row), created: false };
  if (row.status !== 'open') throw busy(row);
  await writesBehind.settle(row.id);
  const missing = missingFrom(row.chunk_count, await receivedIndexes(db, row.id));
  if (missing.length) {
    const shown = missing.length > 50 ? `${missing.slice(0, 50).join(', ')}, … (${missing.length} in all)` : missing.join(', ');
    throw new AppError(400, MediaErrorCode.chunksMissing, `Missing chunk(s): ${shown}`, { missing });
  }
  if (!(await db('upload_sessions').where({ id: row.id, status: 'open' }).update({ status: 'merging', updated_at: now() }))) throw busy({ ...row, status: 'merging' });
  try {
    const parts: { index: number; etag: string | null }[] = await db('upload_chunks').where({ upload_id: row.id }).orderBy('chunk_index').select('chunk_index as index', 'etag');
    await media.chunks.finish(targetOf(row), toNumber(row.file_size), parts.map((p) => ({ index: Number(p.index), etag: p.etag })));
    const { result, media_id } = await purpose.finish(uploadObjectKey(row), row);
    await db('upload_sessions').where({ id: row.id }).update({ status: 'completed', media_id: media_id ?? null, updated_at: now() });
    await db('upload_chunks').where({ upload_id: row.id }).delete();
    await media.chunks.discard({ ...targetOf(row), multipart_id: null });
    return { result, created: true };
  } catch (err) {
    await db('upload_sessions').where({ id: row.id }).update({ status: 'open' });
    throw err;
  }
}

/** Turns the assembled file into a new pending media. */
export async function completeUpload(db: Db, media: MediaStore, user: User, uploadId: string): Promise<{ media: MediaFile; created: boolean }> {
  const { result, created } = await completeUploadFor(db, media, user, uploadId, {
    purpose: 'media',
    finish: async (_key, row) => {
      const binding = { bind_type: row.bind_type, bind_id: toNullableNumber(row.bind_id) ?? undefined } as BindingInput;
      const added = await addMedia(db, media.storage, { storageKey: row.storage_key!, clientName: row.filename, size: toNumber(row.file_size) }, binding, user);
      return { result: added, media_id: added.id };
    },
    completed: async (row) => {
      if (row.media_id === null) throw busy(row);
      return getMedia(db, Number(row.media_id));
    },
  });
  return { media: result, created };
}

/** A merge cut short by a stop of the server never finishes: its session is open again. */
export const reopenInterruptedMerges = (db: Db) => db('upload_sessions').where({ status: 'merging' }).update({ status: 'open' });

/** The chunks of an upload written before `writtenBefore` have reached the disk (UploadFiles.onDurable). */
export const markChunksOnDisk = (db: Db, uploadId: string, writtenBefore: string) =>
  db('upload_chunks').where({ upload_id: uploadId, on_disk: false }).andWhere('received_at', '<=', writtenBefore).update({ on_disk: true });

/**
 * At start: a chunk whose bytes were never flushed (the server did not stop cleanly, perhaps the machine lost power)
 * may not be in the file any more, so it is listed missing again and the client sends it once more.
 */
export const forgetChunksNotOnDisk = (db: Db, startedAt: string) => db('upload_chunks').where({ on_disk: false }).andWhere('received_at', '<', startedAt).delete();

/**
 * Removes sessions without activity for upload_session_ttl_hours (their chunks with them) and chunk folders that
 * belong to no session. Returns how many sessions went.
 */
export async function sweepUploads(db: Db, media: MediaStore): Promise<number> {
  const cutoff = new Date(Date.now() - (await ttlMs(db))).toISOString();
  const expired: SessionRow[] = await db('upload_sessions').where('updated_at', '<', cutoff).whereNot('status', 'merging');
  for (const row of expired) await discardSession(db, media, row);
  const leftovers = await media.chunks.leftovers();
  const known = new Set<string>(leftovers.length ? await db('upload_sessions').whereIn('id', leftovers).pluck('id') : []);
  const orphan = (id: string) => ({ id, key: keys.upload(id), multipart_id: null });
  await Promise.all(leftovers.filter((id) => !known.has(id)).map((id) => media.chunks.discard(orphan(id))));
  return expired.length;
}
