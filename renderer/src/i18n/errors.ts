// The ONE table from the server's stable error codes to translated messages. A code not listed falls back to
// its status class; for the generic codes the server's own message (English) is shown as a detail.
import type { TFunction } from 'i18next';
import { ApiError } from '../api/client';

type ErrorKey = `errors.${string}`;

const byCode: Record<string, ErrorKey> = {
  network_error: 'errors.network_error',
  unauthorized: 'errors.unauthorized',
  forbidden: 'errors.forbidden',
  not_found: 'errors.not_found',
  conflict: 'errors.conflict',
  bad_request: 'errors.bad_request',
  invalid_json: 'errors.bad_request',
  validation_failed: 'errors.validation_failed',
  payload_too_large: 'errors.payload_too_large',
  unsupported_media_type: 'errors.unsupported_media_type',
  internal_error: 'errors.internal_error',
  account_disabled: 'errors.account_disabled',
  no_model_route: 'errors.no_model_route',
  model_route_failed: 'errors.model_route_failed',
  model_stream_failed: 'errors.model_route_failed',
  unknown_quick_action: 'errors.unknown_quick_action',
  commission_rate_missing: 'errors.commission_rate_missing',
  'exam.not_enough_questions': 'errors.exam_not_enough_questions',
  'exam.attempts_exhausted': 'errors.exam_attempts_exhausted',
  'exam.session_closed': 'errors.exam_session_closed',
  'exam.nothing_to_retry': 'errors.exam_nothing_to_retry',
  pack_invalid: 'errors.pack_invalid',
  pack_empty: 'errors.pack_empty',
  pack_not_approved: 'errors.pack_not_approved',
  pack_conflict: 'errors.pack_conflict',
  'knowledge.invalid_format': 'errors.knowledge_invalid_format',
  'knowledge.not_pending': 'errors.already_reviewed',
  'knowledge.file_changed': 'errors.knowledge_file_changed',
  'knowledge.file_missing': 'errors.knowledge_file_missing',
  'media.not_pending': 'errors.already_reviewed',
  'media.upload_busy': 'errors.media_upload_busy',
  'media.size_mismatch': 'errors.media_upload_broken',
  'media.chunks_missing': 'errors.media_upload_broken',
  'media.chunk_out_of_range': 'errors.media_upload_broken',
  'media.chunk_size_mismatch': 'errors.media_upload_broken',
  'learning.course_inactive': 'errors.course_inactive',
  'audio.unsupported_format': 'errors.audio_unsupported_format',
};

/** Codes whose translation is general: the server's message says what exactly was wrong. */
const GENERIC = new Set(['bad_request', 'invalid_json', 'validation_failed', 'conflict']);

const byStatus = (status: number): ErrorKey =>
  status === 0 ? 'errors.network_error' : status >= 500 ? 'errors.internal_error' : status === 404 ? 'errors.not_found' : status === 403 ? 'errors.forbidden' : 'errors.bad_request';

export interface DescribedError {
  message: string;
  /** The server's own words, when the translated message is only general. */
  detail?: string;
}

export function describeError(error: unknown, t: TFunction): DescribedError {
  if (!(error instanceof ApiError)) return { message: t('errors.unexpected') };
  const key = byCode[error.code];
  const detail = !key || GENERIC.has(error.code) ? error.message || undefined : undefined;
  return { message: t((key ?? byStatus(error.status)) as never), detail };
}
