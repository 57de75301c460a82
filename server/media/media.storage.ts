// Where media bytes live: objects `media/files/<storage_key>` in the storage (server/storage/; locally
// DATA_DIR/media/files, so keeping a received file is a rename). The folders below are the local side: request
// bodies being received (incoming/) and, on local storage, chunked uploads being assembled (chunks/). Names are
// always generated here; nothing from the client ends up in a key or a path.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { mkdirPrivate } from '../data-dir.js';
import { keys, type Storage } from '../storage/index.js';

export interface MediaDirs {
  /** Approved and pending media, one file per storage key. */
  files: string;
  /** Multipart bodies while they arrive, one folder per request. */
  incoming: string;
  /** Chunked uploads in progress, one folder per upload id holding the file being assembled. */
  chunks: string;
}

export function mediaDirs(dataDir: string): MediaDirs {
  const root = path.join(dataDir, 'media');
  return { files: path.join(root, 'files'), incoming: path.join(root, 'incoming'), chunks: path.join(root, 'chunks') };
}

export async function ensureMediaDirs(dirs: MediaDirs): Promise<void> {
  await Promise.all(Object.values(dirs).map(mkdirPrivate));
}

export const newStorageKey = (): string => crypto.randomBytes(16).toString('hex');

export const uploadDir = (dirs: MediaDirs, uploadId: string): string => path.join(dirs.chunks, uploadId);

/** The file a chunked upload assembles: each chunk is written at its own offset as it arrives. */
export const partialFilePath = (dirs: MediaDirs, uploadId: string): string => path.join(uploadDir(dirs, uploadId), 'file.part');

/** A fresh folder for one multipart request; the caller removes it when the request is over. */
export async function requestFolder(dirs: MediaDirs): Promise<string> {
  const dir = path.join(dirs.incoming, crypto.randomUUID());
  await mkdirPrivate(dir);
  return dir;
}

/** Whatever a crash left in incoming/ belongs to no request any more. */
export async function clearIncoming(dirs: MediaDirs): Promise<void> {
  const entries = await fs.readdir(dirs.incoming).catch(() => []);
  await Promise.all(entries.map((name) => fs.rm(path.join(dirs.incoming, name), { recursive: true, force: true })));
}

/**
 * Keeps a received file (a request's temporary file) as a media's bytes under a new generated key and returns that
 * key. Locally a rename within DATA_DIR (flushed, so a media the database lists survives a power cut); on S3 an
 * upload, the temporary file removed after.
 */
export async function keepFile(storage: Storage, receivedPath: string): Promise<string> {
  const key = newStorageKey();
  await storage.putFile(keys.media(key), receivedPath, { move: true });
  return key;
}

export const removeStoredFile = (storage: Storage, storageKey: string): Promise<void> => storage.delete(keys.media(storageKey));
