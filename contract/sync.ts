// Sync between branch laptops and the central server (docs/sync.md, docs/api/sync.md).
import type { ExamOutcome, SessionKind } from './exams.js';
import type { MediaBindType } from './media.js';
import type { PushedReviewLog } from './review.js';
import type { InspectionBody } from './compliance.js';

export const SyncErrorCode = {
  /** The enrolment token is unknown, used, expired or its device revoked. */
  enrolmentRefused: 'sync.enrolment_refused',
  /** The central URL is not https (or http on loopback), or the CA certificate is not PEM. */
  insecureUrl: 'sync.insecure_url',
  notEnrolled: 'sync.not_enrolled',
  /** The central server could not be reached or answered with an error. */
  centralUnreachable: 'sync.central_unreachable',
  centralRefused: 'sync.central_refused',
  alreadyRunning: 'sync.already_running',
  rangeNotSatisfiable: 'sync.range_not_satisfiable',
} as const;

// ---- central, admin

export interface CreatedDevice {
  device_id: number;
  /** Shown once: only its hash is kept. Valid until expires_at, for one enrolment. */
  enrolment_token: string;
  expires_at: string;
}

export interface SyncDevice {
  id: number;
  gid: string;
  name: string;
  /** waiting (token not used yet), expired, enrolled or revoked. */
  state: 'waiting' | 'expired' | 'enrolled' | 'revoked';
  enrolment_expires_at: string | null;
  enrolled_at: string | null;
  revoked: boolean;
  revoked_at: string | null;
  flagged: boolean;
  flagged_at: string | null;
  flag_reason: string | null;
  app_version: string | null;
  last_seen_at: string | null;
  last_push_at: string | null;
  /** Changes accepted from it in all, and refused. */
  pushed_total: number;
  refused_total: number;
  last_pull_at: string | null;
  last_pull_cursor: string | null;
  created_at: string;
}

// ---- central, device-authenticated

export interface Enrolment {
  device_id: number;
  device_gid: string;
  /** `Authorization: Device <credential>` on the device routes. */
  credential: string;
}

export type ChangeOp = 'upsert' | 'delete';

/** One change of a pull page: the row's latest state (data) for an upsert, only its gid for a delete. */
export interface PulledChange {
  entity: string;
  gid: string;
  op: ChangeOp;
  data: Record<string, unknown> | null;
}

export interface PullPage {
  changes: PulledChange[];
  /** Where the next pull starts (opaque). */
  cursor: string;
  /** More changes wait after this page. */
  more: boolean;
}

/** A question of a pushed record, in the order the session drew them. */
export interface PushedAnswer {
  question_gid: string;
  version: number;
  user_answer: string | string[];
  is_correct: boolean;
  correct_answer: string | string[];
}

/** A formal record as it goes up: its outcome as the branch graded it, and what the central server re-grades it from. */
export interface PushedRecord extends Omit<ExamOutcome, 'certificate_id' | 'leave_count'> {
  /** Absent from branches older than migration 020. */
  leave_count?: number;
  gid: string;
  user_gid: string;
  paper_gid: string;
  duration_minutes: number;
  started_at: string;
  certificate_gid: string | null;
  answers: PushedAnswer[];
}

/** A course's progress of a user: merged centrally (completed wins, earliest stamps), never moved back. */
export interface PushedProgress {
  user_gid: string;
  course_gid: string;
  status: 'viewed' | 'completed';
  viewed_at: string | null;
  completed_at: string | null;
  updated_at: string;
}

/** A mistake-book entry of a user: merged centrally (larger count, later wrong answer, mastered when mastered last). */
export interface PushedMistake {
  user_gid: string;
  question_gid: string;
  wrong_count: number;
  last_wrong_answer: string | string[];
  last_wrong_at: string;
  last_source: SessionKind;
  mastered: boolean;
  mastered_at: string | null;
  updated_at: string;
}

/** A study note written on the branch: kept centrally by its gid, the later edit wins. */
export interface PushedNote {
  gid: string;
  user_gid: string;
  title: string;
  content: string;
  course_gid: string | null;
  product_gid: string | null;
  created_at: string;
  updated_at: string;
}

/** A study note its user deleted on the branch: deleted centrally unless edited there since. */
export interface PushedNoteDeletion {
  gid: string;
  user_gid: string;
  deleted_at: string;
}

/** A mistake-book entry its user deleted on the branch: deleted centrally unless a wrong answer or mastery came since. */
export interface PushedMistakeDeletion {
  user_gid: string;
  question_gid: string;
  deleted_at: string;
}

/** A media uploaded on the branch (its file went up first, by `PUT /api/sync/uploads/{gid}`): pending central audit. */
export interface PushedMedia {
  gid: string;
  user_gid: string;
  filename: string;
  size: number;
  sha256: string;
  bind_type: MediaBindType;
  bind_gid: string | null;
  remark: string;
  created_at: string;
}

/** A compliance inspection made on the branch (docs/api/compliance.md): stored once centrally, by gid. */
export interface PushedInspection {
  gid: string;
  user_gid: string;
  product_gid: string | null;
  /** The branch's transcription (its text and audio stay on the laptop). */
  transcription_id: number;
  revision: number;
  /** The branch's rule set and the version used. */
  rule_set_id: number;
  rule_set_version: number;
  /** The rule set's gid: central stores its own id of a rule set it sent down (absent from older branches). */
  rule_set_gid?: string | null;
  department: string;
  filename: string;
  rep_speaker: string;
  score: number;
  outcome: 'pass' | 'fail';
  critical_failures: number;
  customer_risk: string | null;
  trigger: 'auto' | 'manual';
  body: InspectionBody;
  created_at: string;
}

/** A finished role-play session made on the branch (docs/api/roleplay.md): its turns and report, stored once centrally, by gid. */
export interface PushedRoleplaySession {
  gid: string;
  user_gid: string;
  scenario_gid: string;
  mode: 'model' | 'scripted';
  turns: unknown[];
  score: number;
  passed: boolean;
  report: unknown;
  created_at: string;
  finished_at: string;
}

export type PushedChange =
  | { change_id: string; entity: 'exam_record'; data: PushedRecord }
  | { change_id: string; entity: 'course_progress'; data: PushedProgress }
  | { change_id: string; entity: 'mistake'; data: PushedMistake }
  | { change_id: string; entity: 'study_note'; data: PushedNote }
  | { change_id: string; entity: 'media'; data: PushedMedia }
  | { change_id: string; entity: 'study_note_deleted'; data: PushedNoteDeletion }
  | { change_id: string; entity: 'mistake_deleted'; data: PushedMistakeDeletion }
  | { change_id: string; entity: 'review_log'; data: PushedReviewLog }
  | { change_id: string; entity: 'compliance_inspection'; data: PushedInspection }
  | { change_id: string; entity: 'roleplay_session'; data: PushedRoleplaySession };

export type PushedEntity = PushedChange['entity'];

/** Where a file uploaded by a branch stands on the central server. */
export interface UploadState {
  gid: string;
  received: number;
}

/** `retry`: not taken this time and not remembered (a media whose uploaded file is incomplete): pushed again later. */
export type PushOutcome = 'accepted' | 'refused' | 'conflict' | 'retry';

export interface PushResult {
  change_id: string;
  outcome: PushOutcome;
  reason: string | null;
}

// ---- branch, admin

export type SyncState = 'idle' | 'running' | 'offline' | 'error';

export interface SyncStatus {
  central_url: string | null;
  device_id: number | null;
  state: SyncState;
  last_success_at: string | null;
  /** Changes waiting to go up. */
  pending_up: number;
  /** Changes the central server said were left after the last pull, plus files not downloaded yet. */
  pending_down: number;
  last_error: string | null;
  /** Files being downloaded: bytes received of each. */
  downloads: { gid: string; size: number; received: number }[];
  next_run_at: string | null;
}

/** What the header shows everyone on a branch (nothing when the install is not enrolled). */
export interface SyncIndicator {
  enrolled: boolean;
  state: SyncState;
  last_success_at: string | null;
}

export interface SyncRunSummary {
  pushed: number;
  pulled: number;
  files: number;
  conflicts: number;
  duration_ms: number;
}
