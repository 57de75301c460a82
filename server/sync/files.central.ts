// Central: media files for branches, by byte range, with their sha256 (computed once per media, media.hash.ts).
import type { Context } from 'koa';
import type { Db } from '../db/knex.js';
import { notFound } from '../http/errors.js';
import { SyncErrorCode } from '../../contract/sync.js';
import { mediaSha256 } from '../media/media.hash.js';
import { objectSource, sendFile } from '../http/file-response.js';
import { keys, type Storage } from '../storage/index.js';

/** Approved media whose sha256 was never computed (media from before sync) get it now, once; a missing file is `missing`. */
export async function fillMissingHashes(db: Db, storage: Storage, rows: Record<string, unknown>[]): Promise<Record<string, unknown>[]> {
  return Promise.all(
    rows.map(async (row) => {
      if (row.sha256 || row.status !== 'approved') return row;
      const sha256 = await mediaSha256(db, storage, { id: Number(row.id), storage_key: String(row.storage_key) });
      return sha256 ? { ...row, sha256 } : { ...row, status: 'missing' };
    }),
  );
}

/** Streams an approved media file (or the asked range of it); 404 for anything that is not approved. */
export async function serveFile(ctx: Context, db: Db, storage: Storage, gid: string): Promise<void> {
  const row = (await db('media_files').where({ gid, status: 'approved' }).first()) as Record<string, unknown> | undefined;
  if (!row) throw notFound('File');
  const [withHash] = await fillMissingHashes(db, storage, [row]);
  if (withHash!.status !== 'approved') throw notFound('File');
  const sha256 = String(withHash!.sha256);
  const source = await objectSource(storage, keys.media(String(row.storage_key)), () => notFound('File'));
  await sendFile(ctx, source, {
    filename: String(row.filename),
    mimeType: 'application/octet-stream',
    disposition: 'attachment',
    etag: sha256,
    cacheControl: 'private, no-cache',
    headers: { 'X-Content-SHA256': sha256 },
    rangeErrorCode: SyncErrorCode.rangeNotSatisfiable,
  });
}
