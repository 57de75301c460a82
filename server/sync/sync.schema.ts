import { RuleKinds, Severities } from '../../contract/compliance.js';
import { z } from 'zod';
import { MEDIA_DIRECT_MAX_BYTES } from '../../contract/media.js';

export const DeviceBody = z.object({ name: z.string().trim().min(1).max(100) });

export const EnrolBody = z.object({
  enrolment_token: z.string().min(1).max(200),
  app_version: z.string().max(32).optional(),
});

const Gid = z.string().uuid();
const Stamp = z.string().min(10).max(32);
const AnswerValue = z.union([z.string().max(1000), z.array(z.string().max(200)).max(100)]);

const PushedRecord = z.object({
  gid: Gid,
  session_id: z.string().min(1).max(36),
  user_gid: Gid,
  paper_gid: Gid,
  exam_name: z.string().max(200),
  score: z.number().finite(),
  total_score: z.number().int(),
  pass_score: z.number().int(),
  passed: z.boolean(),
  correct_count: z.number().int().min(0),
  wrong_count: z.number().int().min(0),
  question_count: z.number().int().min(0),
  time_spent_sec: z.number().int().min(0).max(2_147_483_647),
  late: z.boolean(),
  leave_count: z.number().int().min(0).max(2_147_483_647).optional(),
  duration_minutes: z.number().int().min(0).max(100_000),
  started_at: Stamp,
  submitted_at: Stamp,
  certificate_gid: Gid.nullable(),
  answers: z
    .array(z.object({ question_gid: Gid, version: z.number().int().min(0), user_answer: AnswerValue, is_correct: z.boolean(), correct_answer: AnswerValue }))
    .min(1)
    .max(500),
});

const PushedProgress = z.object({
  user_gid: Gid,
  course_gid: Gid,
  status: z.enum(['viewed', 'completed']),
  viewed_at: Stamp.nullable(),
  completed_at: Stamp.nullable(),
  updated_at: Stamp,
});

const PushedMistake = z.object({
  user_gid: Gid,
  question_gid: Gid,
  wrong_count: z.number().int().min(0).max(1_000_000),
  last_wrong_answer: AnswerValue,
  last_wrong_at: Stamp,
  last_source: z.enum(['formal', 'self_test', 'retry']),
  mastered: z.boolean(),
  mastered_at: Stamp.nullable(),
  updated_at: Stamp,
});

const PushedNote = z.object({
  gid: Gid,
  user_gid: Gid,
  title: z.string().max(200),
  content: z.string().max(200_000),
  course_gid: Gid.nullable(),
  product_gid: Gid.nullable(),
  created_at: Stamp,
  updated_at: Stamp,
});

const PushedMedia = z.object({
  gid: Gid,
  user_gid: Gid,
  filename: z.string().min(1).max(255),
  size: z.number().int().min(0).max(MEDIA_DIRECT_MAX_BYTES),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  bind_type: z.enum(['none', 'product', 'course', 'company']),
  bind_gid: Gid.nullable(),
  remark: z.string().max(2000),
  created_at: Stamp,
});

const PushedNoteDeletion = z.object({ gid: Gid, user_gid: Gid, deleted_at: Stamp });
const PushedMistakeDeletion = z.object({ user_gid: Gid, question_gid: Gid, deleted_at: Stamp });

const PushedReviewLog = z.object({
  gid: Gid,
  card: z.object({
    gid: Gid,
    user_gid: Gid,
    kind: z.enum(['question', 'practice']),
    question_gid: Gid.nullable(),
    prompt: z.object({ title: z.string().max(2000), detail: z.string().max(5000), correct: z.string().max(5000), explanation: z.string().max(20_000) }).nullable(),
    created_at: Stamp,
  }),
  rating: z.number().int().min(0).max(4),
  reviewed_at: Stamp,
  origin: z.enum(['formal', 'self_test', 'retry', 'review', 'practice', 'created']),
  correct: z.boolean().nullable(),
  answer: AnswerValue.nullable(),
});

const Localized = z.object({ 'zh-CN': z.string().max(2000), en: z.string().max(2000) });
const PushedEvidence = z.object({ segment_index: z.number().int().min(0), start: z.number().min(0), end: z.number().min(0), speaker: z.string().max(100), quote: z.string().max(20_000) });
const PushedInspection = z.object({
  gid: Gid,
  user_gid: Gid,
  product_gid: Gid.nullable(),
  transcription_id: z.number().int().min(0),
  revision: z.number().int().min(1),
  rule_set_id: z.number().int().min(0),
  rule_set_version: z.number().int().min(1),
  rule_set_gid: z.string().max(36).nullish(),
  department: z.string().max(100),
  filename: z.string().max(255),
  rep_speaker: z.string().max(100),
  score: z.number().int().min(0).max(100),
  outcome: z.enum(['pass', 'fail']),
  critical_failures: z.number().int().min(0),
  customer_risk: z.string().max(8).nullable(),
  trigger: z.enum(['auto', 'manual']),
  body: z.object({
    product: z.object({ id: z.number().int(), code: z.string().max(64).nullable(), name: z.string().max(200), risk_level: z.string().max(50) }).nullable(),
    results: z
      .array(
        z.object({
          rule_key: z.string().max(64),
          name: Localized,
          kind: z.enum(RuleKinds),
          outcome: z.enum(['pass', 'fail', 'not_applicable']),
          severity: z.enum(Severities),
          note: z.string().max(500),
          evidence: z.array(PushedEvidence).max(1000),
        }),
      )
      .max(500),
    second_opinion: z.object({
      status: z.enum(['complete', 'unavailable', 'failed', 'off']),
      findings: z.array(z.object({ rule_key: z.string().max(64), outcome: z.enum(['pass', 'fail']), reason: z.string().max(2000), evidence: z.array(PushedEvidence.extend({ audio_url: z.null().default(null) })).max(100) })).max(100),
    }),
  }),
  created_at: Stamp,
});

const PushedRoleplaySession = z.object({
  gid: Gid,
  user_gid: Gid,
  scenario_gid: Gid,
  mode: z.enum(['model', 'scripted']),
  turns: z.array(z.object({ index: z.number().int().min(0), speaker: z.enum(['customer', 'rep']), text: z.string().max(20_000) }).passthrough()).max(400),
  score: z.number().int().min(0).max(100),
  passed: z.boolean(),
  report: z.object({ criteria: z.array(z.unknown()).max(100), compliance: z.object({ results: z.array(z.unknown()).max(500) }), practice_item_ids: z.array(z.number()).max(100) }),
  created_at: Stamp,
  finished_at: Stamp,
});

const change = <E extends string, T extends z.ZodTypeAny>(entity: E, data: T) => z.object({ change_id: Gid, entity: z.literal(entity), data });

export const PushBody = z.object({
  changes: z
    .array(
      z.discriminatedUnion('entity', [
        change('exam_record', PushedRecord),
        change('course_progress', PushedProgress),
        change('mistake', PushedMistake),
        change('study_note', PushedNote),
        change('media', PushedMedia),
        change('study_note_deleted', PushedNoteDeletion),
        change('mistake_deleted', PushedMistakeDeletion),
        change('review_log', PushedReviewLog),
        change('compliance_inspection', PushedInspection),
        change('roleplay_session', PushedRoleplaySession),
      ]),
    )
    .max(500),
});

export const PullQuery = z.object({
  cursor: z.string().max(50).optional(),
  limit: z.coerce.number().int().min(1).max(2000).default(500),
});

export const ConfigBody = z.object({
  central_url: z.string().trim().url().max(500),
  enrolment_token: z.string().trim().min(1).max(200),
  ca_cert: z.string().max(50_000).nullable().optional(),
});
