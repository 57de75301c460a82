import type { Db } from '../db/knex.js';
import type { MediaSummary } from '../../contract/catalog.js';
import type { MediaBindType } from '../../contract/media.js';
import { signedFileUrl } from './media.signing.js';

export type MediaBinding = MediaBindType;

/**
 * Approved media bound to a company/product/course, for the detail pages that list them, oldest first.
 * Only approved media are ever listed (spec 4.2, 4.4); company media have no bind id.
 */
export async function approvedMediaFor(db: Db, bindType: MediaBinding, bindId?: number): Promise<MediaSummary[]> {
  const query = db('media_files').where({ bind_type: bindType, status: 'approved' }).orderBy('id').select('id', 'filename', 'file_ext');
  if (bindId === undefined) query.whereNull('bind_id');
  else query.where('bind_id', bindId);
  const rows: { id: number; filename: string; file_ext: string }[] = await query;
  return rows.map((r) => ({ id: Number(r.id), filename: r.filename, file_ext: r.file_ext, preview_url: signedFileUrl(db, Number(r.id)).url }));
}
