// A media's sha256, computed once from its stored bytes and kept in media_files.sha256: sync serves it with the file
// (branches verify what they download), pack exports list it, pack imports compare with it.
import type { Db } from '../db/knex.js';
import { keys, sha256OfObject, isNotFound, type Storage } from '../storage/index.js';

/** null when the stored file is missing. */
export async function mediaSha256(db: Db, storage: Storage, row: { id: number | string; storage_key: string; sha256?: string | null }): Promise<string | null> {
  if (row.sha256) return row.sha256;
  try {
    const { sha256 } = await sha256OfObject(storage, keys.media(row.storage_key));
    await db('media_files').where({ id: row.id }).update({ sha256 });
    return sha256;
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
}
