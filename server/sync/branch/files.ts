// Branch: approved media downloaded by byte range into DATA_DIR/sync/<gid>.part, resumed at the bytes on disk,
// verified by sha256, then moved into the media folder (docs/sync.md, "Files"). The bytes move on a thread of their
// own (downloader.ts); this side keeps the database and the files' places.
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../../db/knex.js';
import { now } from '../../db/time.js';
import { mkdirPrivate } from '../../data-dir.js';
import { keys, type Storage } from '../../storage/index.js';
import { catalogChanged } from '../../db/catalog-cache.js';
import { CentralError, type Central } from './central-client.js';
import { Downloader, type Downloaded } from './downloader.js';

/** Partial downloads stay in this laptop's DATA_DIR/sync; finished files go into the storage. */
export interface BranchFiles {
  dataDir: string;
  storage: Storage;
}

export const partFile = (dataDir: string, gid: string): string => path.join(dataDir, 'sync', `${gid}.part`);

interface Wanted {
  gid: string;
  sha256: string;
  size: number;
}

/** Live progress of the downloads (bytes on disk), for the status page. */
export type Progress = Map<string, { size: number; received: number }>;

const sizeOnDisk = (file: string): number => {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
};

/** Downloads what is missing of one file; true when it is complete and verified, false when central no longer has it. */
async function download(db: Db, downloader: Downloader, central: Central, { dataDir, storage }: BranchFiles, file: Wanted, progress: Progress): Promise<boolean> {
  const part = partFile(dataDir, file.gid);
  let have = sizeOnDisk(part);
  if (have > file.size) {
    fs.rmSync(part, { force: true });
    have = 0;
  }
  progress.set(file.gid, { size: file.size, received: have });
  let got: Downloaded;
  try {
    got = await downloader.fetch({ central, gid: file.gid, part, size: file.size, have }, (received) => progress.set(file.gid, { size: file.size, received }));
  } catch (err) {
    await db('sync_files').where({ gid: file.gid }).update({ received: sizeOnDisk(part), updated_at: now() });
    throw err;
  }
  if (got === 'gone') return false;
  if (got.received !== file.size || got.sha256 !== file.sha256) {
    fs.rmSync(part, { force: true });
    await db('sync_files').where({ gid: file.gid }).update({ received: 0, last_error: 'sha256 mismatch', updated_at: now() });
    throw new CentralError(`A downloaded file did not match its sha256 (${file.gid}); it will be downloaded again`, false);
  }
  const row = (await db('media_files').where({ gid: file.gid }).first('storage_key')) as { storage_key: string } | undefined;
  if (!row) return false;
  await storage.putFile(keys.media(row.storage_key), part, { move: true });
  await db.transaction(async (trx) => {
    await trx('media_files').where({ gid: file.gid }).update({ status: 'approved' });
    await trx('sync_files').where({ gid: file.gid }).update({ received: file.size, done_at: now(), last_error: null, updated_at: now() });
  });
  catalogChanged(db);
  return true;
}

/** Downloads every file waiting, one after another; returns how many were completed. */
export async function downloadFiles(db: Db, central: Central, files: BranchFiles, progress: Progress): Promise<number> {
  await mkdirPrivate(path.join(files.dataDir, 'sync'));
  const waiting = (await db('sync_files').whereNull('done_at').orderBy('updated_at')) as Wanted[];
  if (!waiting.length) return 0;
  const downloader = new Downloader();
  let done = 0;
  try {
    for (const file of waiting) {
      try {
        if (await download(db, downloader, central, files, { ...file, size: Number(file.size) }, progress)) done++;
        else await db('sync_files').where({ gid: file.gid }).delete();
      } finally {
        progress.delete(file.gid);
      }
    }
  } finally {
    await downloader.close();
  }
  return done;
}

export const pendingFiles = async (db: Db): Promise<number> => Number((await db('sync_files').whereNull('done_at').count({ count: '*' }).first())?.count ?? 0);
