// Moving a single node's user files from its DATA_DIR into the bucket (`npm run storage:migrate`, docs/storage.md).
// Resumable and idempotent: an object already in the bucket with the same size (and, where the store's ETag is an
// MD5 of the bytes, the same MD5) is skipped, so the command can be run again after an interruption, or once more
// after the old node's last writes, and only copies what is missing or different. The DATA_DIR is only read.
import crypto from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { LocalStorage } from './local.js';
import type { ObjectInfo, Storage } from './storage.js';

/** The prefixes of user files that live in the storage (keys.ts). Uploads in progress and sync staging are not moved. */
export const MIGRATED_PREFIXES = ['media/files/', 'audio/recordings/', 'audio/failed-jobs/', 'models/'] as const;

export interface MigrateReport {
  copied: number;
  copiedBytes: number;
  skipped: number;
  failed: { key: string; error: string }[];
}

export interface MigrateOptions {
  dryRun?: boolean;
  log?: (line: string) => void;
  prefixes?: readonly string[];
}

async function md5Of(file: string): Promise<string> {
  const hash = crypto.createHash('md5');
  for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Whether the target already holds these bytes: same size, and the same MD5 where the ETag is one (not multipart). */
async function sameObject(source: LocalStorage, object: ObjectInfo, existing: ObjectInfo | undefined): Promise<boolean> {
  if (!existing || existing.size !== object.size) return false;
  if (!/^[0-9a-f]{32}$/i.test(existing.etag)) return true;
  return (await md5Of(source.pathOf(object.key))) === existing.etag.toLowerCase();
}

export async function migrateToStorage(source: LocalStorage, target: Storage, { dryRun = false, log = () => undefined, prefixes = MIGRATED_PREFIXES }: MigrateOptions = {}): Promise<MigrateReport> {
  const report: MigrateReport = { copied: 0, copiedBytes: 0, skipped: 0, failed: [] };
  for (const prefix of prefixes) {
    for await (const object of source.list(prefix)) {
      try {
        if (await sameObject(source, object, await target.stat(object.key))) {
          report.skipped++;
          continue;
        }
        if (!dryRun) await target.putFile(object.key, source.pathOf(object.key));
        report.copied++;
        report.copiedBytes += object.size;
        log(`${dryRun ? 'would copy' : 'copied'} ${object.key} (${object.size} bytes)`);
      } catch (err) {
        report.failed.push({ key: object.key, error: (err as Error).message ?? String(err) });
        log(`failed ${object.key}: ${(err as Error).message ?? String(err)}`);
      }
    }
  }
  return report;
}
