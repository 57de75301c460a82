// Branch: the files of media uploaded here go up before their media are pushed (docs/sync.md, "Files"): from the
// byte the central server already has, so a cut upload resumes; the central server checks the sha256 sent with the
// media against the whole file.
import type { Db } from '../../db/knex.js';
import { now } from '../../db/time.js';
import { toNumber } from '../../db/rows.js';
import { mediaSha256 } from '../../media/media.hash.js';
import { keys, type Storage } from '../../storage/index.js';
import { callCentral, type Central } from './central-client.js';
import { UploadAnswer } from './answers.js';

interface WaitingMedia {
  change_id: string;
  id: number;
  storage_key: string;
  size: number;
  sha256: string | null;
}

/** Uploads what the central server lacks of each waiting media's file; returns how many files it completed. */
export async function uploadMediaFiles(db: Db, central: Central, storage: Storage): Promise<number> {
  const waiting = (await db('sync_outbox as o')
    .join('media_files as m', 'm.id', 'o.row_id')
    .where('o.entity', 'media')
    .whereNull('o.sent_at')
    .orderBy('o.seq')
    .select('o.change_id', 'm.id', 'm.storage_key', 'm.size', 'm.sha256')) as WaitingMedia[];
  let done = 0;
  for (const media of waiting) {
    const key = keys.media(media.storage_key);
    const size = toNumber(media.size);
    if (!(await storage.stat(key))) {
      await db('sync_outbox').where({ change_id: media.change_id }).update({ sent_at: now(), outcome: 'skipped', reason: 'the file is missing' });
      continue;
    }
    await mediaSha256(db, storage, media);
    const path = `/api/sync/uploads/${media.change_id}`;
    const { received } = await callCentral(central, 'GET', path, UploadAnswer);
    if (received >= size) continue;
    await callCentral(central, 'PUT', path, UploadAnswer, undefined, {
      stream: await storage.get(key, { start: received, end: size - 1 }),
      headers: { 'content-type': 'application/octet-stream', 'content-length': String(size - received), 'content-range': `bytes ${received}-${size - 1}/${size}` },
    });
    done++;
  }
  return done;
}
