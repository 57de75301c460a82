import type { Db } from '../db/knex.js';
import type { Page } from '../../contract/envelope.js';
import { paginate } from '../db/paginate.js';
import type { ExtractionState, MediaBindType, MediaExtraction, MediaFile, MediaStatus } from '../../contract/media.js';
import { toNullableNumber, toNumber } from '../db/rows.js';
import { now } from '../db/time.js';
import { kindOf } from './media.names.js';
import { signedFileUrl } from './media.signing.js';

export interface MediaRow {
  id: number;
  filename: string;
  file_ext: string;
  mime_type: string;
  size: number | string;
  storage_key: string;
  /** Computed once, when first needed (media.hash.ts). */
  sha256?: string | null;
  bind_type: MediaBindType;
  bind_id: number | null;
  status: MediaStatus;
  reject_reason: string | null;
  remark: string;
  uploaded_by: number | null;
  reviewed_by: number | null;
  reviewed_at: string | null;
  extraction_state: ExtractionState;
  extraction_progress: number;
  extraction_stage: string;
  extraction_chunks: number;
  extraction_error: string | null;
  created_at: string;
  updated_at: string;
  uploader_name?: string | null;
}

export type NewMedia = Pick<MediaRow, 'filename' | 'file_ext' | 'mime_type' | 'storage_key' | 'bind_type' | 'bind_id' | 'uploaded_by'> & {
  size: number;
  remark?: string;
};

export const toExtraction = (r: MediaRow): MediaExtraction => ({
  state: r.extraction_state,
  progress: toNumber(r.extraction_progress),
  stage: r.extraction_stage,
  chunks: toNumber(r.extraction_chunks),
  error: r.extraction_error,
});

export const toMediaFile = (db: Db, r: MediaRow): MediaFile => ({
  id: Number(r.id),
  filename: r.filename,
  file_ext: r.file_ext,
  mime_type: r.mime_type,
  kind: kindOf(r.file_ext, r.mime_type),
  size: toNumber(r.size),
  bind_type: r.bind_type,
  bind_id: toNullableNumber(r.bind_id),
  status: r.status,
  reject_reason: r.reject_reason,
  remark: r.remark,
  uploaded_by: toNullableNumber(r.uploaded_by),
  uploader_name: r.uploader_name ?? '',
  reviewed_by: toNullableNumber(r.reviewed_by),
  reviewed_at: r.reviewed_at,
  preview_url: r.status === 'approved' ? signedFileUrl(db, Number(r.id)).url : null,
  extraction: toExtraction(r),
  created_at: r.created_at,
  updated_at: r.updated_at,
});

/** Media rows with the uploader's display name. */
const joinUploader = (db: Db) => db<MediaRow>('media_files as m').leftJoin('users as u', 'u.id', 'm.uploaded_by');
const uploaderColumns = (db: Db) => ['m.*', db.raw("COALESCE(NULLIF(u.full_name, ''), u.username) as uploader_name")];
const withUploader = (db: Db) => joinUploader(db).select(uploaderColumns(db));

export const findMediaRow = (db: Db, id: number): Promise<MediaRow | undefined> => withUploader(db).where('m.id', id).first();

export async function insertMedia(db: Db, media: NewMedia): Promise<number> {
  const stamp = now();
  const [row] = await db('media_files')
    .insert({ ...media, remark: media.remark ?? '', status: 'pending', created_at: stamp, updated_at: stamp })
    .returning('id');
  return Number((row as { id: number }).id);
}

export interface MediaListFilter {
  status?: MediaStatus;
  page: number;
  size: number;
}

/** Newest first. */
export async function listMedia(db: Db, { status, ...paging }: MediaListFilter): Promise<Page<MediaFile>> {
  const base = joinUploader(db);
  if (status) base.where('m.status', status);
  return paginate(base, paging, (q) => q.select(uploaderColumns(db)).orderBy('m.id', 'desc'), (row: MediaRow) => toMediaFile(db, row));
}

export type ExtractionUpdate = Partial<{
  extraction_state: ExtractionState;
  extraction_progress: number;
  extraction_stage: string;
  extraction_chunks: number;
  extraction_error: string | null;
}>;

export const updateExtraction = (db: Db, id: number, update: ExtractionUpdate) =>
  db('media_files').where({ id }).update({ ...update, updated_at: now() });
