import type { Db } from '../db/knex.js';
import { catalogChanged } from '../db/catalog-cache.js';
import type { User } from '../../contract/users.js';
import { MediaErrorCode, type MediaFile, type MediaPreview, type MediaStatus, type MediaStatusInfo } from '../../contract/media.js';
import { AppError, notFound, validationFailed } from '../http/errors.js';
import { now } from '../db/time.js';
import { displayName, extensionOf, kindOf, mimeTypeOf } from './media.names.js';
import { findMediaRow, insertMedia, toExtraction, toMediaFile, type MediaRow } from './media.repository.js';
import { keepFile, removeStoredFile } from './media.storage.js';
import type { Storage } from '../storage/index.js';
import { signedFileUrl, signedReviewUrl, type SignedUrl } from './media.signing.js';
import { hasExtractor } from './media.extract.js';
import type { AuditInput, BindingInput } from './media.schema.js';
import { notify } from '../notifications/notifications.service.js';
import { materialApproved, materialPending, materialRejected } from '../notifications/messages.js';

/** The bound product or course must exist (an inactive one still does). */
export async function checkBinding(db: Db, binding: BindingInput): Promise<void> {
  if (binding.bind_type !== 'product' && binding.bind_type !== 'course') return;
  const table = binding.bind_type === 'product' ? 'products' : 'courses';
  if (!(await db(table).where({ id: binding.bind_id }).first('id'))) {
    throw validationFailed(`Invalid bind_id: ${binding.bind_type} ${binding.bind_id} does not exist`, [{ path: 'bind_id', message: 'does not exist' }]);
  }
}

/** A fully received file: a request's temporary file (moved into the storage), or an object already stored there. */
export type ReceivedFile = ({ path: string } | { storageKey: string }) & {
  /** The client's name, as given. */
  clientName: string | null | undefined;
  size: number;
};

/** Keeps a fully received file as a new pending media. */
export async function addMedia(db: Db, storage: Storage, file: ReceivedFile, binding: BindingInput, uploader: User, remark = ''): Promise<MediaFile> {
  const filename = displayName(file.clientName);
  const fileExt = extensionOf(filename);
  const storageKey = 'storageKey' in file ? file.storageKey : await keepFile(storage, file.path);
  try {
    const id = await insertMedia(db, {
      filename,
      file_ext: fileExt,
      mime_type: mimeTypeOf(fileExt),
      size: file.size,
      storage_key: storageKey,
      bind_type: binding.bind_type,
      bind_id: binding.bind_id ?? null,
      uploaded_by: uploader.id,
      remark,
    });
    return await getMedia(db, id);
  } catch (err) {
    await removeStoredFile(storage, storageKey);
    throw err;
  }
}

async function requireMediaRow(db: Db, id: number): Promise<MediaRow> {
  const row = await findMediaRow(db, id);
  if (!row) throw notFound('Media');
  return row;
}

export const getMedia = async (db: Db, id: number): Promise<MediaFile> => toMediaFile(db, await requireMediaRow(db, id));

/** Approved media are on public pages anyway; otherwise only the uploader and admins see a media (others get 404). */
async function visibleMediaRow(db: Db, id: number, user: User): Promise<MediaRow> {
  const row = await requireMediaRow(db, id);
  const visible = row.status === 'approved' || user.role === 'admin' || Number(row.uploaded_by) === user.id;
  if (!visible) throw notFound('Media');
  return row;
}

export const getVisibleMedia = async (db: Db, id: number, user: User): Promise<MediaFile> => toMediaFile(db, await visibleMediaRow(db, id, user));

export async function mediaStatus(db: Db, id: number, user: User): Promise<MediaStatusInfo> {
  const row = await visibleMediaRow(db, id, user);
  return { id: Number(row.id), status: row.status, reject_reason: row.reject_reason, extraction: toExtraction(row) };
}

/** Approved media only: anything else is a 404, whoever asks (spec 4.6). */
export async function approvedMediaRow(db: Db, id: number): Promise<MediaRow> {
  const row = await findMediaRow(db, id);
  if (!row || row.status !== 'approved') throw notFound('Approved media');
  return row;
}

export async function mediaPreview(db: Db, id: number): Promise<MediaPreview> {
  const row = await approvedMediaRow(db, id);
  return previewOf(row, signedFileUrl(db, Number(row.id)));
}

/** For the reviewer deciding on it: a media in any status, opened through the review file URL. */
export async function reviewPreview(db: Db, id: number): Promise<MediaPreview> {
  const row = await requireMediaRow(db, id);
  return previewOf(row, signedReviewUrl(db, Number(row.id)));
}

/** The media row behind a review file link, whatever its status. */
export const reviewMediaRow = requireMediaRow;

function previewOf(row: MediaRow, { url, expiresAt }: SignedUrl): MediaPreview {
  return {
    id: Number(row.id),
    filename: row.filename,
    file_ext: row.file_ext,
    mime_type: row.mime_type,
    kind: kindOf(row.file_ext, row.mime_type),
    size: Number(row.size),
    preview_url: url,
    expires_at: expiresAt,
  };
}

/**
 * pending → approved (text extraction queued, or skipped for non-text files) or → rejected with its reason.
 * Only pending media can be audited; the update is conditional so two admins cannot both decide.
 * Returns whether an extraction must be started.
 */
export async function auditMedia(db: Db, id: number, reviewer: User, input: AuditInput): Promise<{ media: MediaFile; extract: boolean }> {
  const row = await requireMediaRow(db, id);
  const stamp = now();
  const status: MediaStatus = input.action === 'approve' ? 'approved' : 'rejected';
  const extract = status === 'approved' && hasExtractor(row.file_ext);
  const extraction =
    status === 'rejected'
      ? {}
      : extract
        ? { extraction_state: 'queued', extraction_progress: 0, extraction_stage: 'waiting', extraction_chunks: 0, extraction_error: null }
        : { extraction_state: 'skipped', extraction_progress: 100, extraction_stage: 'not_text', extraction_chunks: 0, extraction_error: null };
  const changed = await db('media_files')
    .where({ id, status: 'pending' })
    .update({
      status,
      reject_reason: status === 'rejected' ? input.reject_reason : null,
      reviewed_by: reviewer.id,
      reviewed_at: stamp,
      updated_at: stamp,
      ...extraction,
    });
  if (!changed) throw new AppError(409, MediaErrorCode.notPending, `Media ${id} is ${row.status}; only pending media can be audited`);
  catalogChanged(db);
  const media = await getMedia(db, id);
  // The uploader hears of the decision (not an admin deciding on their own upload).
  if (media.uploaded_by !== null && media.uploaded_by !== reviewer.id) {
    await notify.user(db, media.uploaded_by, status === 'approved' ? materialApproved(media) : materialRejected(media, input.reject_reason ?? ''));
  }
  return { media, extract };
}

/** Admins hear of a new upload waiting for their review (the uploading admin excepted). */
export async function announcePending(db: Db, media: MediaFile, uploader: User): Promise<void> {
  await notify.admins(db, materialPending(uploader.full_name || uploader.username, media), uploader.id);
}
