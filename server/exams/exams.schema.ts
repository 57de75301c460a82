import { z } from 'zod';
import { nameText } from '../http/plain-text.js';
import { Paging, QueryBool } from '../http/validate.js';
import { IsoDateOrTimestamp } from '../http/dates.js';
import { ShowAnswers } from '../../contract/exams.js';

const text = (max: number) => z.string().trim().max(max);
const positiveId = z.number().int().positive();
const queryId = z.coerce.number().int().positive();

export const QuestionTypes = ['single', 'multiple', 'true_false'] as const;

const QuestionOption = z.object({ key: text(20).min(1), text: text(2000).min(1) });

const QuestionFields = z.object({
  domain: text(100).min(1),
  course_id: positiveId.nullable().optional(),
  type: z.enum(QuestionTypes),
  stem: text(10_000).min(1),
  /** May be omitted for true_false: the options "true" and "false" are then supplied. */
  options: z.array(QuestionOption).max(20).optional(),
  answer: z.array(text(20).min(1)).min(1).max(20),
  explanation: z.string().max(10_000).optional(),
  status: z.enum(['active', 'disabled']).optional(),
});

export const QuestionCreate = QuestionFields;
export const QuestionUpdate = QuestionFields.partial();
export type QuestionInput = z.output<typeof QuestionUpdate>;

export const QuestionListQuery = z.object({
  domain: z.string().trim().min(1).optional(),
  /** Omitted → active only; `all` → every status. */
  status: z.enum(['active', 'disabled', 'all']).optional(),
  type: z.enum(QuestionTypes).optional(),
  course_id: queryId.optional(),
  /** Case-insensitive "contains" on the stem. */
  q: z.string().trim().max(200).optional(),
  /** Optional paging: when either is given, that page of the list (by id). */
  page: z.coerce.number().int().min(1).optional(),
  size: z.coerce.number().int().min(1).max(500).optional(),
});
export type QuestionFilter = z.output<typeof QuestionListQuery>;

/** The spec does not name the self-test value: these spellings (any case) are accepted and stored as `self_test`. */
const SELF_TEST_ALIASES = new Set(['self_test', 'self-test', 'selftest', 'self', 'practice']);
const PaperType = z
  .string()
  .trim()
  .toLowerCase()
  .transform((type) => (SELF_TEST_ALIASES.has(type) ? 'self_test' : type))
  .pipe(z.enum(['formal', 'self_test']));

const Instant = IsoDateOrTimestamp;

const PaperFields = z.object({
  name: nameText(200).min(1),
  type: PaperType,
  domain: text(100).min(1),
  question_count: z.number().int().min(1).max(500),
  total_score: z.number().int().min(1).max(10_000),
  pass_score: z.number().int().min(0).max(10_000),
  duration_minutes: z.number().int().min(1).max(1440),
  randomize: z.boolean().optional(),
  description: z.string().max(10_000).optional(),
  max_attempts: z.number().int().min(1).max(1000).nullable().optional(),
  show_answers: z.enum(ShowAnswers).optional(),
  opens_at: Instant.nullable().optional(),
  closes_at: Instant.nullable().optional(),
  shuffle_options: z.boolean().optional(),
  status: z.enum(['active', 'inactive']).optional(),
  audience: z
    .object({ department_ids: z.array(z.number().int().positive().max(2_147_483_647)).max(10_000).default([]), user_ids: z.array(z.number().int().positive().max(2_147_483_647)).max(10_000).default([]) })
    .strict()
    .nullable()
    .optional(),
});

const passWithinTotal = (p: { pass_score?: number; total_score?: number }) =>
  p.pass_score === undefined || p.total_score === undefined || p.pass_score <= p.total_score;
const passWithinTotalIssue = { message: 'pass_score must not exceed total_score', path: ['pass_score'] };

const windowInOrder = (p: { opens_at?: string | null; closes_at?: string | null }) => !p.opens_at || !p.closes_at || p.opens_at < p.closes_at;
const windowInOrderIssue = { message: 'closes_at must be after opens_at', path: ['closes_at'] };

export const PaperCreate = PaperFields.refine(passWithinTotal, passWithinTotalIssue).refine(windowInOrder, windowInOrderIssue);
/** Checked again against the stored paper for the fields that were not sent. */
export const PaperUpdate = PaperFields.partial().refine(passWithinTotal, passWithinTotalIssue).refine(windowInOrder, windowInOrderIssue);
export type PaperInput = z.output<typeof PaperUpdate>;

export const PaperListQuery = z.object({
  /** Case-insensitive "contains" on the name. */
  q: z.string().trim().max(200).optional(),
  type: PaperType.optional(),
  status: z.enum(['active', 'inactive']).optional(),
  page: z.coerce.number().int().min(1).optional(),
  size: z.coerce.number().int().min(1).max(500).optional(),
});
export type PaperFilter = z.output<typeof PaperListQuery>;

export const PaperIdQuery = z.object({ id: queryId });
export const StartBody = z.object({ paper_id: positiveId });

/**
 * The map of rule 2.3.2; only its shape is checked here, its values are read against the session by
 * grading.parseAnswers. A JSON object's keys are strings already, so checking that it is one is all z.record would do,
 * at the cost of walking and copying every answer of every submit.
 */
const AnswerMap = z.custom<Record<string, unknown>>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), {
  message: 'Expected an object mapping question ids to answers',
});

export const SubmitBody = z.object({
  session_id: z.string().trim().min(1).max(64),
  answers: AnswerMap,
  time_spent_sec: z.number().int().min(0).max(10_000_000).optional(),
  /** How often the candidate left the exam window (counted by the client; shown to admins, never blocking). */
  leave_count: z.number().int().min(0).max(100_000).optional(),
});
export type SubmitInput = z.output<typeof SubmitBody>;

export const SaveAnswersBody = z.object({ answers: AnswerMap });

const searchText = z.string().trim().max(200).optional();

export const RecordQuery = Paging.extend({
  paper_id: queryId.optional(),
  /** Exact username of the record's user (an unknown one matches nothing). */
  username: searchText,
  /** Case-insensitive "contains" on the exam name of the record. */
  exam_name: searchText,
  /** Case-insensitive "contains" on the username, the full name or the exam name. */
  keyword: searchText,
});
export const AdminRecordQuery = RecordQuery.extend({
  user_id: queryId.optional(),
  /** Alias of paper_id ("filter by exam"). */
  exam_id: queryId.optional(),
  passed: QueryBool.optional(),
  /** Exact department (of the user now). */
  department: z.string().trim().min(1).max(200).optional(),
  /** Submitted at or after `from` and before `to`: ISO timestamps, or dates (a UTC day's start). */
  from: Instant.optional(),
  to: Instant.optional(),
});
export type RecordFilter = z.output<typeof AdminRecordQuery>;

/** The record filters without paging: what the charts and the export cover. */
const RecordSelection = AdminRecordQuery.omit({ page: true, size: true });

export const StatsQuery = RecordSelection.extend({
  /** The trend's buckets. */
  granularity: z.enum(['day', 'month']).default('day'),
  /** The reader's offset from UTC in minutes (east positive, +480 for China), whole hours: days and months are theirs. */
  tz_offset: z.coerce.number().int().min(-720).max(840).refine((m) => m % 60 === 0, 'must be whole hours (a multiple of 60)').default(0),
});
export type StatsFilter = z.output<typeof StatsQuery>;

export const ExportQuery = RecordSelection.extend({
  /** The language of the column names and results. */
  lang: z.enum(['zh-CN', 'en']).default('zh-CN'),
  /** The reader's offset; without it times are in the firm's time zone (the `timezone` setting). */
  tz_offset: z.coerce.number().int().min(-720).max(840).refine((m) => m % 60 === 0, 'must be whole hours (a multiple of 60)').optional(),
});
export type ExportFilter = z.output<typeof ExportQuery>;

export const MistakeQuery = Paging.extend({
  /** Omitted or `all` → every entry; `true` / `false` → mastered / still to practise. */
  mastered: z.enum(['true', 'false', 'all']).optional(),
  domain: z.string().trim().min(1).optional(),
});
export type MistakeFilter = z.output<typeof MistakeQuery>;

export const RetryBody = z.object({
  limit: z.number().int().min(1).max(100).default(20),
  question_ids: z.array(positiveId).min(1).max(100).optional(),
  domain: text(100).min(1).optional(),
});
export type RetryInput = z.output<typeof RetryBody>;

/** Who has not taken a paper yet: the active employees without a record of it. */
export const NotTakenQuery = Paging.extend({
  paper_id: queryId,
  department: z.string().trim().max(200).optional(),
  q: z.string().trim().max(200).optional(),
});
