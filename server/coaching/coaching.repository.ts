import type { Knex } from 'knex';
import type { Db } from '../db/knex.js';
import { paginate, type Paging } from '../db/paginate.js';
import { parseJson, toBool, toNullableNumber, toNumber } from '../db/rows.js';
import type { Page } from '../../contract/envelope.js';
import type { QuestionOption, QuestionType } from '../../contract/exams.js';
import type {
  Citation,
  CoachingReport,
  CoachingReportSummary,
  DraftStatus,
  QuestionDraft,
  ReportUser,
  ReviewItem,
  SegmentRef,
} from '../../contract/coaching.js';
import type { DraftFilter, ReportFilter } from './coaching.schema.js';
import { practiceItemCards } from '../review/review.events.js';

/** What a report stores as JSON; the rest are columns or read at each request. */
export type ReportBody = Pick<
  CoachingReport,
  'source' | 'transcription' | 'customer_speakers' | 'product' | 'figures' | 'rep_figures' | 'objections' | 'facts' | 'practice' | 'scenario' | 'parts' | 'needs_model' | 'model'
>;

export interface NewReport {
  user_id: number;
  transcription_id: number;
  transcript_revision: number;
  task_id: number | null;
  run_id: number | null;
  rep_speaker: string;
  product_id: number | null;
  filename: string;
  objection_count: number;
  misstated_count: number;
  model_status: string;
  body: ReportBody;
  created_at: string;
  /** The job that made it (its request's key): a job taken up again finds its report instead of making another. */
  job_key: string | null;
}

interface UserColumns {
  username: string;
  full_name: string | null;
}

interface ReportRow extends UserColumns {
  id: number | string;
  user_id: number | string;
  transcription_id: number | string;
  transcript_revision: number | string | null;
  rep_speaker: string;
  filename: string;
  objection_count: number | string;
  misstated_count: number | string;
  model_status: CoachingReportSummary['model_status'];
  body: string;
  pending_drafts: number | string;
  created_at: string;
}

export interface StoredReport {
  summary: CoachingReportSummary;
  rep_speaker: string;
  body: ReportBody;
}

const userOf = (id: number | string, row: UserColumns): ReportUser => ({ id: Number(id), username: row.username, full_name: row.full_name ?? '' });

const pendingDrafts = (db: Db) =>
  db('coaching_question_drafts as d').count('*').whereRaw('?? = ??', ['d.report_id', 'r.id']).andWhere('d.status', 'pending').as('pending_drafts');

const reportQuery = (db: Db) => db('coaching_reports as r').join('users as u', 'u.id', 'r.user_id');

const REPORT_COLUMNS = (db: Db) => ['r.*', 'u.username', 'u.full_name', pendingDrafts(db)];

function toStored(row: ReportRow): StoredReport {
  const body = parseJson<ReportBody>(row.body, {} as ReportBody);
  const product = body.product ? { id: body.product.id, code: body.product.code, name: body.product.name } : null;
  return {
    rep_speaker: row.rep_speaker,
    body,
    summary: {
      id: Number(row.id),
      user: userOf(row.user_id, row),
      transcription_id: Number(row.transcription_id),
      transcript_revision: toNumber(row.transcript_revision ?? 1),
      filename: row.filename,
      product,
      objection_count: toNumber(row.objection_count),
      misstated_count: toNumber(row.misstated_count),
      pending_drafts: toNumber(row.pending_drafts),
      model_status: row.model_status,
      created_at: row.created_at,
    },
  };
}

export async function insertReport(db: Db, report: NewReport): Promise<number> {
  const [row] = await db('coaching_reports')
    .insert({ ...report, body: JSON.stringify(report.body) })
    .returning('id');
  return Number((row as { id: number }).id);
}

/** The report a job made, if it got as far as committing it. */
export async function reportIdOfJob(db: Db, jobKey: string): Promise<number | undefined> {
  const row: { id: number } | undefined = await db('coaching_reports').where({ job_key: jobKey }).first('id');
  return row && Number(row.id);
}

export async function findReport(db: Db, id: number): Promise<StoredReport | undefined> {
  const row = (await reportQuery(db).where('r.id', id).first(REPORT_COLUMNS(db))) as ReportRow | undefined;
  return row && toStored(row);
}

/** Newest first. `ownerId` set: that user's reports only (a rep); otherwise the filter's user_id, if any (an admin). */
export async function listReports(db: Db, ownerId: number | undefined, filter: ReportFilter): Promise<Page<CoachingReportSummary>> {
  const base = reportQuery(db);
  const userId = ownerId ?? filter.user_id;
  if (userId !== undefined) base.where('r.user_id', userId);
  if (filter.product_id !== undefined) base.where('r.product_id', filter.product_id);
  if (filter.transcription_id !== undefined) base.where('r.transcription_id', filter.transcription_id);
  if (filter.from) base.where('r.created_at', '>=', new Date(filter.from).toISOString());
  // A bare date as `to` means the whole of that day.
  if (filter.to) base.where('r.created_at', '<=', /^\d{4}-\d{2}-\d{2}$/.test(filter.to.trim()) ? `${filter.to.trim()}T23:59:59.999Z` : new Date(filter.to).toISOString());
  return paginate(base, filter, (q) => q.select(REPORT_COLUMNS(db)).orderBy('r.id', 'desc'), (row: ReportRow) => toStored(row).summary);
}

// Review items ------------------------------------------------------------------------------------------------

export type ReviewBody = Pick<ReviewItem, 'label' | 'claim' | 'stated' | 'correct' | 'explanation' | 'segments' | 'citations'>;

interface ReviewRow {
  id: number | string;
  user_id: number | string;
  report_id: number | string | null;
  inspection_id: number | string | null;
  finding_id: string;
  body: string;
  mastered: boolean | number;
  mastered_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface NewReviewItem {
  user_id: number;
  report_id: number | null;
  inspection_id?: number | null;
  roleplay_session_id?: number | null;
  finding_id: string;
  body: ReviewBody;
  created_at: string;
}

/** Stores the items and makes their practice cards; returns the items' ids in order. */
export async function insertReviewItems(db: Db, items: NewReviewItem[]): Promise<number[]> {
  if (!items.length) return [];
  const rows = await db('coaching_review_items')
    .insert(items.map((item) => ({ ...item, body: JSON.stringify(item.body), mastered: false, updated_at: item.created_at })))
    .returning('id');
  const ids = (pick: (item: NewReviewItem) => number | null | undefined) => items.map(pick).filter((id): id is number => typeof id === 'number');
  await practiceItemCards(db, { reportIds: ids((item) => item.report_id), inspectionIds: ids((item) => item.inspection_id), roleplaySessionIds: ids((item) => item.roleplay_session_id) });
  return rows.map((row) => Number((row as { id: number }).id));
}

/** Bank questions approved from drafts of these reports, by report and finding. */
async function approvedQuestionIds(db: Db, reportIds: number[]): Promise<Map<string, number[]>> {
  const found = new Map<string, number[]>();
  if (!reportIds.length) return found;
  const rows: { report_id: number | string; provenance: string; question_id: number | string | null }[] = await db('coaching_question_drafts')
    .whereIn('report_id', [...new Set(reportIds)])
    .andWhere('status', 'approved')
    .orderBy('id')
    .select('report_id', 'provenance', 'question_id');
  for (const row of rows) {
    if (row.question_id === null) continue;
    for (const finding of parseJson<DraftProvenance>(row.provenance, EMPTY_PROVENANCE).finding_ids) {
      const key = `${Number(row.report_id)}/${finding}`;
      found.set(key, [...(found.get(key) ?? []), Number(row.question_id)]);
    }
  }
  return found;
}

async function toReviewItems(db: Db, rows: ReviewRow[]): Promise<ReviewItem[]> {
  const questions = await approvedQuestionIds(
    db,
    rows.flatMap((r) => (r.report_id === null ? [] : [Number(r.report_id)])),
  );
  return rows.map((r) => ({
    id: Number(r.id),
    report_id: toNullableNumber(r.report_id),
    inspection_id: toNullableNumber(r.inspection_id ?? null),
    finding_id: r.finding_id,
    ...parseJson<ReviewBody>(r.body, {} as ReviewBody),
    mastered: toBool(r.mastered),
    mastered_at: r.mastered_at,
    question_ids: questions.get(`${Number(r.report_id)}/${r.finding_id}`) ?? [],
    created_at: r.created_at,
    updated_at: r.updated_at,
  }));
}

export async function listReviewItems(db: Db, filter: { user_id?: number; report_id?: number; mastered?: boolean } & Paging): Promise<Page<ReviewItem>> {
  const base = db('coaching_review_items');
  if (filter.user_id !== undefined) base.where('user_id', filter.user_id);
  if (filter.report_id !== undefined) base.where('report_id', filter.report_id);
  if (filter.mastered !== undefined) base.where('mastered', filter.mastered);
  const page = await paginate(base, filter, (q) => q.select('*').orderBy('id', 'desc'), (row: ReviewRow) => row);
  return { ...page, items: await toReviewItems(db, page.items) };
}

export async function reviewItemsOfReport(db: Db, reportId: number): Promise<ReviewItem[]> {
  return toReviewItems(db, await db('coaching_review_items').where({ report_id: reportId }).orderBy('id'));
}

export async function findReviewItem(db: Db, id: number): Promise<(ReviewItem & { user_id: number }) | undefined> {
  const row: ReviewRow | undefined = await db('coaching_review_items').where({ id }).first();
  if (!row) return undefined;
  const [item] = await toReviewItems(db, [row]);
  return { ...item!, user_id: Number(row.user_id) };
}

export async function setMastered(db: Db, id: number, mastered: boolean, at: string): Promise<void> {
  await db('coaching_review_items')
    .where({ id })
    .update({ mastered, mastered_at: mastered ? at : null, updated_at: at });
}

// Draft questions ---------------------------------------------------------------------------------------------

export interface DraftProvenance {
  finding_ids: string[];
  segments: SegmentRef[];
  citations: Citation[];
}
const EMPTY_PROVENANCE: DraftProvenance = { finding_ids: [], segments: [], citations: [] };

interface DraftRow extends UserColumns {
  id: number | string;
  report_id: number | string;
  user_id: number | string;
  domain: string;
  type: QuestionType;
  stem: string;
  options: string;
  answer: string;
  explanation: string;
  provenance: string;
  status: DraftStatus;
  reject_reason: string | null;
  question_id: number | string | null;
  reviewed_by: number | string | null;
  reviewed_at: string | null;
  created_at: string;
  updated_at: string;
}

export type NewDraft = Pick<QuestionDraft, 'report_id' | 'domain' | 'type' | 'stem' | 'options' | 'answer' | 'explanation'> & {
  user_id: number;
  provenance: DraftProvenance;
  created_at: string;
};

const toDraft = (r: DraftRow): QuestionDraft => {
  const { finding_ids, segments, citations } = parseJson<DraftProvenance>(r.provenance, EMPTY_PROVENANCE);
  return {
    id: Number(r.id),
    report_id: Number(r.report_id),
    finding_ids,
    user: userOf(r.user_id, r),
    domain: r.domain,
    type: r.type,
    stem: r.stem,
    options: parseJson<QuestionOption[]>(r.options, []),
    answer: parseJson<string[]>(r.answer, []),
    explanation: r.explanation,
    segments,
    citations,
    status: r.status,
    reject_reason: r.reject_reason,
    question_id: toNullableNumber(r.question_id),
    reviewed_by: toNullableNumber(r.reviewed_by),
    reviewed_at: r.reviewed_at,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
};

const draftQuery = (db: Db) => db('coaching_question_drafts as d').join('users as u', 'u.id', 'd.user_id');
const DRAFT_COLUMNS = ['d.*', 'u.username', 'u.full_name'];

export async function insertDrafts(db: Db, drafts: NewDraft[]): Promise<void> {
  if (!drafts.length) return;
  await db('coaching_question_drafts').insert(
    drafts.map(({ provenance, options, answer, ...d }) => ({
      ...d,
      finding_id: provenance.finding_ids[0] ?? '',
      options: JSON.stringify(options),
      answer: JSON.stringify(answer),
      provenance: JSON.stringify(provenance),
      status: 'pending',
      updated_at: d.created_at,
    })),
  );
}

export async function listDrafts(db: Db, filter: DraftFilter): Promise<Page<QuestionDraft>> {
  const base = draftQuery(db);
  if (filter.status !== 'all') base.where('d.status', filter.status);
  if (filter.user_id !== undefined) base.where('d.user_id', filter.user_id);
  if (filter.report_id !== undefined) base.where('d.report_id', filter.report_id);
  // Oldest pending first: a review queue is worked from its head.
  return paginate(base, filter, (q) => q.select(DRAFT_COLUMNS).orderBy('d.id', filter.status === 'pending' ? 'asc' : 'desc'), toDraft);
}

export async function draftsOfReport(db: Db, reportId: number): Promise<QuestionDraft[]> {
  return ((await draftQuery(db).where('d.report_id', reportId).orderBy('d.id').select(DRAFT_COLUMNS)) as DraftRow[]).map(toDraft);
}

export async function findDraft(db: Db, id: number): Promise<QuestionDraft | undefined> {
  const row = (await draftQuery(db).where('d.id', id).first(DRAFT_COLUMNS)) as DraftRow | undefined;
  return row && toDraft(row);
}

export type DraftChanges = Partial<Pick<QuestionDraft, 'domain' | 'type' | 'stem' | 'options' | 'answer' | 'explanation' | 'status' | 'reject_reason' | 'question_id' | 'reviewed_by' | 'reviewed_at'>> & { updated_at: string };

/** Changes a draft that is still pending; false when it is not (anymore). */
export async function updatePendingDraft(db: Db | Knex.Transaction, id: number, changes: DraftChanges): Promise<boolean> {
  const { options, answer, ...rest } = changes;
  const count = await db('coaching_question_drafts')
    .where({ id, status: 'pending' })
    .update({ ...rest, ...(options && { options: JSON.stringify(options) }), ...(answer && { answer: JSON.stringify(answer) }) });
  return Number(count) > 0;
}
