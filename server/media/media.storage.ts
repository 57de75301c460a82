// Where media bytes live. Everything sits under DATA_DIR/media on one file system, so moving a received file into
// place is a rename. Names on disk are always generated here; nothing from the client ends up in a path.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { mkdirPrivate, PRIVATE_FILE_MODE } from '../data-dir.js';

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

export const storedFilePath = (dirs: MediaDirs, storageKey: string): string => path.join(dirs.files, storageKey);

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

/** Flushes a file, or a folder's entries, to disk. A folder cannot be opened for that on every platform (Windows). */
async function flushToDisk(target: string, kind: 'file' | 'folder'): Promise<void> {
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

/**
 * Moves a received file to its generated name under files/ and returns that key. The bytes and the new name are on
 * disk before it returns, so a media that the database lists survives a power cut.
 */
export async function keepFile(dirs: MediaDirs, receivedPath: string): Promise<string> {
  const key = newStorageKey();
  // Whoever wrote it (formidable, a pack import) used the default mode; stored media are owner-only.
  await fs.chmod(receivedPath, PRIVATE_FILE_MODE);
  await flushToDisk(receivedPath, 'file');
  await fs.rename(receivedPath, storedFilePath(dirs, key));
  await flushToDisk(dirs.files, 'folder');
  return key;
}

export const removeStoredFile = (dirs: MediaDirs, storageKey: string): Promise<void> =>
  fs.rm(storedFilePath(dirs, storageKey), { force: true });
