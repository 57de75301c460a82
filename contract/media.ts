/** Media files, uploads (direct and chunked), audit, preview and text extraction (spec 2.2 Media file / Upload session, 4.6). */
import type { Page } from './envelope.js';

export type MediaStatus = 'pending' | 'approved' | 'rejected';
export type MediaBindType = 'company' | 'product' | 'course' | 'none';

/** Fixed by spec part 8. */
export const MEDIA_CHUNK_SIZE = 5_242_880;
/** Largest direct upload (spec part 8). */
export const MEDIA_DIRECT_MAX_BYTES = 200 * 1024 * 1024;
/** Largest chunked upload; the spec leaves it open. */
export const MEDIA_CHUNKED_MAX_BYTES = 20 * 1024 * 1024 * 1024;

/**
 * not_started: not approved yet; queued / running: waiting or working in the background; done: chunks ingested;
 * failed: no usable text (see error); skipped: not a text document (video, image, audio, other).
 */
export type ExtractionState = 'not_started' | 'queued' | 'running' | 'done' | 'failed' | 'skipped';

export interface MediaExtraction {
  state: ExtractionState;
  /** 0 to 100. */
  progress: number;
  /** What the extraction is doing or where it stopped: waiting, reading, extracting, chunking, indexing, done, not_text. */
  stage: string;
  /** Knowledge chunks ingested so far. */
  chunks: number;
  error: string | null;
}

/** How a player should show the file. */
export type MediaKind = 'video' | 'audio' | 'image' | 'pdf' | 'document' | 'other';

export interface MediaFile {
  id: number;
  /** The client's file name, reduced to its last path segment without control characters; data only, never a path. */
  filename: string;
  /** Lower-case extension without the dot; '' when the name has none. */
  file_ext: string;
  mime_type: string;
  kind: MediaKind;
  size: number;
  bind_type: MediaBindType;
  bind_id: number | null;
  status: MediaStatus;
  reject_reason: string | null;
  /** The note given with suggest-material; '' otherwise. */
  remark: string;
  uploaded_by: number | null;
  uploader_name: string;
  reviewed_by: number | null;
  reviewed_at: string | null;
  /** A signed, short-lived URL of the file; null until the media is approved. */
  preview_url: string | null;
  extraction: MediaExtraction;
  created_at: string;
  updated_at: string;
}

export type MediaAuditPage = Page<MediaFile>;

export interface MediaPreview extends Pick<MediaFile, 'id' | 'filename' | 'file_ext' | 'mime_type' | 'kind' | 'size'> {
  /** Opens in a browser `<video>`, `<audio>` or `<img>` as it is (token in the query, HTTP Range supported). */
  preview_url: string;
  /** When the token in preview_url stops working; ask the preview endpoint again after that. */
  expires_at: string;
}

export interface MediaStatusInfo {
  id: number;
  status: MediaStatus;
  reject_reason: string | null;
  extraction: MediaExtraction;
}

export interface MediaAuditRequest {
  action: 'approve' | 'reject';
  reject_reason?: string;
}

export interface UploadInitRequest {
  filename: string;
  file_size: number;
  bind_type?: MediaBindType;
  bind_id?: number | null;
}

export interface UploadInitResult {
  upload_id: string;
  chunk_size: number;
  chunk_count: number;
  expires_at: string;
}

export type UploadSessionStatus = 'open' | 'merging' | 'completed';

export interface UploadSession extends UploadInitResult {
  filename: string;
  file_size: number;
  bind_type: MediaBindType;
  bind_id: number | null;
  status: UploadSessionStatus;
  /** Chunk indexes already stored, ascending. */
  received: number[];
  /** Chunk indexes still to send, ascending. */
  missing: number[];
  /** The media created by complete. */
  media_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface ChunkAccepted {
  upload_id: string;
  chunk_index: number;
  size: number;
  received_count: number;
  chunk_count: number;
}

export const MediaErrorCode = {
  chunkOutOfRange: 'media.chunk_out_of_range',
  chunkSizeMismatch: 'media.chunk_size_mismatch',
  chunksMissing: 'media.chunks_missing',
  uploadBusy: 'media.upload_busy',
  sizeMismatch: 'media.size_mismatch',
  notPending: 'media.not_pending',
  invalidFileToken: 'media.invalid_file_token',
  rangeNotSatisfiable: 'media.range_not_satisfiable',
  /** The upload was opened for something else (a media file, a speech model): complete it where it was opened. */
  wrongUploadPurpose: 'media.wrong_upload_purpose',
  /** A chunk answered 200 could not be written after all (507 when the disk is full): it is missing again. */
  chunkNotStored: 'media.chunk_not_stored',
} as const;
