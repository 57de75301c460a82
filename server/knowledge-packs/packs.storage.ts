// Working folders of the knowledge-pack domain, under DATA_DIR so that unpacked media reach media storage by a
// rename. Both are emptied at start: whatever is in them belongs to no request any more.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { mkdirPrivate, mkdirPrivateSync } from '../data-dir.js';

export interface PackDirs {
  /** One folder per export being built or import being unpacked. */
  work: string;
  /** Uploaded pack files while they arrive (multipart). */
  incoming: string;
}

export function packDirs(dataDir: string): PackDirs {
  const root = path.join(dataDir, 'knowledge-packs');
  return { work: path.join(root, 'work'), incoming: path.join(root, 'incoming') };
}

/** Synchronous, before the first request can arrive. */
export function preparePackDirs(dirs: PackDirs): void {
  for (const dir of Object.values(dirs)) {
    fs.rmSync(dir, { recursive: true, force: true });
    mkdirPrivateSync(dir);
  }
}

export async function newWorkFolder(dirs: PackDirs): Promise<string> {
  const dir = path.join(dirs.work, crypto.randomUUID());
  await mkdirPrivate(dir);
  return dir;
}

export const removeFolder = (dir: string): Promise<void> => fs.promises.rm(dir, { recursive: true, force: true });
