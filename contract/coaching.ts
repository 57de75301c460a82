/**
 * Coaching from customer calls: a speaker-labelled call becomes a coaching report (figures, objections, product
 * facts checked against approved knowledge, three things to practise), and its findings become practice: a coach
 * role-play seeded with the customer's real objections, the rep's review list, draft exam questions for admins.
 * Every finding and item carries its provenance: transcript segments and the chunk or product field it rests on.
 */
import type { CallFigures, SpeakerFigures } from './audio.js';
import type { QuestionOption, QuestionType } from './exams.js';
import type { KnowledgeChunkSourceType } from './knowledge.js';

export const CoachingErrorCode = {
  /** rep_speaker is not one of the transcript's speaker labels (details.speakers lists them). */
  unknownSpeaker: 'coaching.unknown_speaker',
  /** The task run has no transcription among its documents (or not at document_index). */
  noTranscript: 'coaching.no_transcript',
  /** An admin asked for a rep's call audio while the system parameter coaching_admin_listen is off. */
  adminListenOff: 'coaching.admin_listen_off',
  /** The draft question was already approved or rejected. */
  draftReviewed: 'coaching.draft_reviewed',
  /** The report has no objections to role-play (the model part did not run, or found none). */
  noScenario: 'coaching.no_scenario',
  /** A signed recording URL whose token is malformed, expired or not the caller's. */
  invalidRecordingToken: 'coaching.invalid_recording_token',
} as const;
// A transcript without speaker labels is refused with 400 `workbench.speakers_required`, the code every step that
// needs speakers uses (GET /api/audio/transcriptions/{id}/figures, the call_review and call_analysis skills).

/** One transcript segment a finding rests on, quoted verbatim, with where to hear it. */
export interface SegmentRef {
  /** Position in the transcription's `segments`. */
  index: number;
  /** Seconds on the call's timeline. */
  start: number;
  end: number;
  speaker: string;
  quote: string;
  /**
   * The call's audio from this segment (`…/recording?token=…#t=start,end`, a media fragment players honour), signed
   * for the reader; null when the audio is not kept or the reader may not listen (an admin while
   * coaching_admin_listen is off).
   */
  audio_url: string | null;
}

/** Approved knowledge a finding rests on: a knowledge chunk (snapshot at analysis time) or a product field. */
export type Citation =
  | { type: 'chunk'; chunk_id: number; source: { type: KnowledgeChunkSourceType; id: number; title: string }; text: string }
  | { type: 'product_field'; product_id: number; product_name: string; field: string; label: string; value: string | number };

export interface ProductRef {
  id: number;
  code: string | null;
  name: string;
  /** true: named in the call (the most mentioned active product); false: given as product_id. */
  detected: boolean;
}

export type ObjectionHandling = 'answered' | 'partly_answered' | 'not_answered';

export interface Objection {
  /** Stable within the report: `objection-1`, `objection-2`… */
  id: string;
  summary: string;
  /** The customer's words. */
  customer: SegmentRef[];
  /** How the rep answered (empty when not answered). */
  rep_response: SegmentRef[];
  handling: ObjectionHandling;
  assessment: string;
  better_answer: string;
  citations: Citation[];
}

export interface FactCheck {
  /** `fact-1`, `fact-2`… */
  id: string;
  /** deterministic: a numeric or structured field compared in code; model: a statement the chat model flagged. */
  method: 'deterministic' | 'model';
  /** The product field checked (`commission_rate`, `risk_level`, `attributes.<key>`), or null for a model finding. */
  field: string | null;
  label: string;
  /** The rep's sentence. */
  claim: string;
  stated: string;
  correct: string;
  verdict: 'misstated' | 'consistent';
  explanation: string;
  /** Where the rep said it: the first MAX_SEGMENTS_PER_FINDING times. */
  segments: SegmentRef[];
  /** How many times the rep said it in the call. */
  occurrences: number;
  citations: Citation[];
}

/** A finding quotes at most this many segments (a rate repeated all through an hour-long call is one finding). */
export const MAX_SEGMENTS_PER_FINDING = 10;

export type PracticeKind = 'fact' | 'objection' | 'talk_ratio' | 'questions' | 'interruptions' | 'monologue' | 'model';

export interface PracticeFocus {
  id: string;
  kind: PracticeKind;
  title: string;
  detail: string;
  /** Findings it comes from (fact-n, objection-n). */
  finding_ids: string[];
  segments: SegmentRef[];
  citations: Citation[];
  /** Practise it in the coach role-play (report.scenario.launch). */
  scenario: boolean;
}

/** A ready request body for POST /api/ai-chat/message: the coach plays the customer of the call. */
export interface ScenarioLaunchMessage {
  message: string;
  context: { coaching_report_id: number; product_id: number | null; page: string };
}

export interface CoachScenario {
  product: { id: number; code: string | null; name: string } | null;
  objections: { objection_id: string; quote: string; start: number; end: number; speaker: string }[];
  /** What the rep got wrong, for the coach to challenge when repeated. */
  misstated: { fact_id: string; label: string; stated: string; correct: string }[];
  launch: {
    /** Open the coach with this exact body (one click); send `context` again with every later message. */
    message: ScenarioLaunchMessage;
    /** Or have the scenario written first: POST /api/ai-chat/quick-action with this body. */
    quick_action: { action_id: 'scenario'; params: { coaching_report_id: number } };
  };
}

/** How each part of the analysis went. `needs_model`: not done because no chat model answered. */
export interface CoachingParts {
  figures: 'done';
  structured_facts: 'done' | 'no_product';
  text_facts: 'done' | 'needs_model';
  objections: 'done' | 'needs_model';
  /** partial: without the model, from facts and figures only (still three items when the rep spoke). */
  practice: 'done' | 'partial';
  scenario: 'done' | 'no_objections' | 'needs_model';
}

export interface CoachingModelRun {
  status: 'complete' | 'unavailable' | 'failed';
  route: { id: number | null; name: string; model: string } | null;
  /** Why the model part did not run or failed (no_model_route, model_route_failed, model_reply_invalid…). */
  error: { code: string; message: string } | null;
  /** Items of the model's reply left out because they cited nothing that exists (a segment, a chunk offered). */
  dropped_items: number;
  /** The transcript was longer than what is sent to the model: its end was left out. */
  transcript_truncated: boolean;
}

export interface ReportUser {
  id: number;
  username: string;
  full_name: string;
}

export interface CoachingRecording {
  available: boolean;
  /** Signed for the reader, valid until expires_at; null when not available. */
  url: string | null;
  expires_at: string | null;
  /** Why not: `not_kept` (the audio is not stored) or `admin_listen_off`. */
  reason: 'not_kept' | 'admin_listen_off' | null;
}

export interface CoachingReportSummary {
  id: number;
  user: ReportUser;
  transcription_id: number;
  /** The revision of the transcript the report analysed (1: as recognised; later: as edited). */
  transcript_revision: number;
  filename: string;
  product: { id: number; code: string | null; name: string } | null;
  objection_count: number;
  misstated_count: number;
  pending_drafts: number;
  model_status: CoachingModelRun['status'];
  created_at: string;
}

export interface CoachingReport extends Omit<CoachingReportSummary, 'product'> {
  source: { kind: 'transcription' | 'task_run'; transcription_id: number; task_id: number | null; run_id: number | null };
  transcription: { id: number; revision?: number; filename: string; language: string; duration_seconds: number | null; route_name: string; route_is_local: boolean; left_local: boolean };
  rep_speaker: string;
  customer_speakers: string[];
  product: ProductRef | null;
  figures: CallFigures;
  rep_figures: SpeakerFigures | null;
  objections: Objection[];
  facts: FactCheck[];
  practice: PracticeFocus[];
  scenario: CoachScenario | null;
  parts: CoachingParts;
  /** Parts that need a chat model and were not done (the `needs_model` entries of parts). */
  needs_model: (keyof CoachingParts)[];
  model: CoachingModelRun;
  recording: CoachingRecording;
  review_items: ReviewItem[];
  question_drafts: QuestionDraft[];
}

/** A misstated fact on the rep's own review list (mistake-book style). */
export interface ReviewItem {
  id: number;
  /** The coaching report the finding came from; null for an item from a compliance inspection. */
  report_id: number | null;
  /** The compliance inspection whose failed critical rule this item practises (finding_id `compliance.<rule_key>`); else null. */
  inspection_id: number | null;
  finding_id: string;
  label: string;
  claim: string;
  stated: string;
  correct: string;
  explanation: string;
  segments: SegmentRef[];
  citations: Citation[];
  mastered: boolean;
  mastered_at: string | null;
  /** Bank questions approved from this finding's drafts: practise them in the bank's exams. */
  question_ids: number[];
  created_at: string;
  updated_at: string;
}

export type DraftStatus = 'pending' | 'approved' | 'rejected';

/** A draft exam question built from a misstated fact; enters the question bank only when an admin approves it. */
export interface QuestionDraft {
  id: number;
  report_id: number;
  /** The findings (fact-n) it is built from: one, or several for a multiple-choice question. */
  finding_ids: string[];
  /** The rep whose call it comes from. */
  user: ReportUser;
  domain: string;
  type: QuestionType;
  stem: string;
  options: QuestionOption[];
  answer: string[];
  explanation: string;
  segments: SegmentRef[];
  citations: Citation[];
  status: DraftStatus;
  reject_reason: string | null;
  /** The bank question once approved. */
  question_id: number | null;
  reviewed_by: number | null;
  reviewed_at: string | null;
  created_at: string;
  updated_at: string;
}
