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
  'exam.session_open': 'errors.exam_session_open',
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
  unsupported_audio: 'errors.audio_unsupported',
  invalid_audio: 'errors.audio_invalid',
  'audio.job_finished': 'errors.audio_job_finished',
  'audio.job_interrupted': 'errors.audio_job_interrupted',
  'audio.recording_unavailable': 'errors.audio_recording_unavailable',
  'audio.invalid_model': 'errors.audio_invalid_model',
  'audio.invalid_model_name': 'errors.audio_invalid_model_name',
  'audio.model_exists': 'errors.audio_model_exists',
  'audio.model_read_only': 'errors.audio_model_read_only',
  'media.wrong_upload_purpose': 'errors.media_upload_broken',
  'workbench.speakers_required': 'errors.speakers_required',
  'coaching.unknown_speaker': 'errors.coaching_unknown_speaker',
  'coaching.no_transcript': 'errors.coaching_no_transcript',
  'coaching.draft_reviewed': 'errors.already_reviewed',
  'coaching.no_scenario': 'errors.coaching_no_scenario',
  'coaching.admin_listen_off': 'errors.coaching_admin_listen_off',
  'coaching.invalid_recording_token': 'errors.coaching_recording_expired',
  'auth.login_locked': 'errors.login_locked',
  'sync.insecure_url': 'errors.sync_insecure_url',
  'sync.enrolment_refused': 'errors.sync_enrolment_refused',
  'sync.central_unreachable': 'errors.sync_central_unreachable',
  'sync.central_refused': 'errors.sync_central_refused',
  'sync.not_enrolled': 'errors.sync_not_enrolled',
  'compliance.rep_unknown': 'errors.compliance_rep_unknown',
  'compliance.unknown_speaker': 'errors.coaching_unknown_speaker',
  'compliance.unknown_revision': 'errors.compliance_unknown_revision',
  'compliance.invalid_rule': 'errors.compliance_invalid_rule',
  'compliance.default_rule_set': 'errors.compliance_default_rule_set',
};

/** Codes whose translation is general: the server's message says what exactly was wrong. */
const GENERIC = new Set(['bad_request', 'invalid_json', 'validation_failed', 'conflict', 'sync.central_refused']);

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
