// The practice a report proposes, after the report: the rep's review list, and the draft questions an admin
// reviews like knowledge sources (approve → a real question in the bank, through the bank's own service; reject →
// the reason kept).
import type { Db } from '../db/knex.js';
import type { Page } from '../../contract/envelope.js';
import type { Question } from '../../contract/exams.js';
import { CoachingErrorCode, type QuestionDraft, type ReviewItem } from '../../contract/coaching.js';
import { AppError, notFound, validationFailed } from '../http/errors.js';
import { now } from '../db/time.js';
import { createQuestion, questionIssues } from '../exams/questions.service.js';
import { findDraft, findReviewItem, listDrafts, listReviewItems, setMastered, updatePendingDraft } from './coaching.repository.js';
import type { DraftEdits, DraftFilter } from './coaching.schema.js';
import { findReport } from './coaching.repository.js';
import { readerLink, withAudioLinks, type Reader } from './reports.service.js';
import type { RecordingLinks } from './recording-links.js';
import { TRUE_FALSE } from './drafts.js';

/** Items and drafts quote the call: each gets the reader's audio links of its own report. */
async function linked<T extends { report_id: number | null }>(db: Db, links: RecordingLinks, reader: Reader, items: T[]): Promise<T[]> {
  const byReport = new Map<number | null, Awaited<ReturnType<typeof readerLink>>>();
  for (const reportId of new Set(items.flatMap((i) => (i.report_id === null ? [] : [i.report_id])))) {
    const stored = await findReport(db, reportId);
    byReport.set(reportId, stored ? await readerLink(db, links, reader, stored) : null);
  }
  return items.map((item) => withAudioLinks(item, byReport.get(item.report_id) ?? null));
}

// Review items (the rep's own) ----------------------------------------------------------------------------------

export async function listOwnReviewItems(db: Db, links: RecordingLinks, reader: Reader, filter: { mastered?: boolean; report_id?: number; page: number; size: number }): Promise<Page<ReviewItem>> {
  const page = await listReviewItems(db, { ...filter, user_id: reader.id });
  return { ...page, items: await linked(db, links, reader, page.items) };
}

async function ownReviewItem(db: Db, reader: Reader, id: number): Promise<ReviewItem> {
  const found = await findReviewItem(db, id);
  if (!found || found.user_id !== reader.id) throw notFound('Review item');
  const { user_id: _owner, ...item } = found;
  return item;
}

export async function getOwnReviewItem(db: Db, links: RecordingLinks, reader: Reader, id: number): Promise<ReviewItem> {
  const [item] = await linked(db, links, reader, [await ownReviewItem(db, reader, id)]);
  return item!;
}

export async function markReviewItem(db: Db, links: RecordingLinks, reader: Reader, id: number, mastered: boolean): Promise<ReviewItem> {
  const item = await ownReviewItem(db, reader, id);
  if (item.mastered !== mastered) await setMastered(db, id, mastered, now());
  return getOwnReviewItem(db, links, reader, id);
}

// Draft questions (admins) --------------------------------------------------------------------------------------

export async function listDraftsFor(db: Db, links: RecordingLinks, reader: Reader, filter: DraftFilter): Promise<Page<QuestionDraft>> {
  const page = await listDrafts(db, filter);
  return { ...page, items: await linked(db, links, reader, page.items) };
}

async function existingDraft(db: Db, id: number): Promise<QuestionDraft> {
  const draft = await findDraft(db, id);
  if (!draft) throw notFound('Question draft');
  return draft;
}

export async function getDraft(db: Db, links: RecordingLinks, reader: Reader, id: number): Promise<QuestionDraft> {
  const [draft] = await linked(db, links, reader, [await existingDraft(db, id)]);
  return draft!;
}

const alreadyReviewed = (draft: QuestionDraft) => new AppError(409, CoachingErrorCode.draftReviewed, `This draft was already ${draft.status}`);

/** Edits a pending draft; the result must still be a well-formed question (the bank's own rules). */
export async function editDraft(db: Db, links: RecordingLinks, reader: Reader, id: number, edits: DraftEdits): Promise<QuestionDraft> {
  const draft = await existingDraft(db, id);
  if (draft.status !== 'pending') throw alreadyReviewed(draft);
  const merged = { ...draft, ...Object.fromEntries(Object.entries(edits).filter(([, v]) => v !== undefined)) } as QuestionDraft;
  // A draft turned true_false gets the two standard options unless new ones are given, as the bank does.
  if (merged.type === 'true_false' && !edits.options && !(merged.options.length === 2 && merged.options.every((o) => o.key === 'true' || o.key === 'false'))) {
    merged.options = TRUE_FALSE;
  }
  const issues = questionIssues(merged);
  if (issues.length) throw validationFailed(`Invalid ${issues[0]!.path}: ${issues[0]!.message}`, issues);
  const { domain, type, stem, options, answer, explanation } = merged;
  if (!(await updatePendingDraft(db, id, { domain, type, stem, options, answer, explanation, updated_at: now() }))) throw alreadyReviewed(await existingDraft(db, id));
  return getDraft(db, links, reader, id);
}

export interface DraftAuditResult {
  status: 'approved' | 'rejected';
  draft: QuestionDraft;
  /** The question created in the bank (approve only). */
  question: Question | null;
}

/** Approve: the draft becomes an active question in the bank, in the same transaction; 409 when already reviewed. */
export async function approveDraft(db: Db, links: RecordingLinks, reviewer: Reader, id: number): Promise<DraftAuditResult> {
  const question = await db.transaction(async (trx) => {
    const draft = await existingDraft(trx, id);
    if (draft.status !== 'pending') throw alreadyReviewed(draft);
    const created = await createQuestion(trx, {
      domain: draft.domain,
      type: draft.type,
      stem: draft.stem,
      options: draft.options,
      answer: draft.answer,
      explanation: draft.explanation,
      status: 'active',
    });
    const at = now();
    const changed = await updatePendingDraft(trx, id, { status: 'approved', question_id: created.id, reviewed_by: reviewer.id, reviewed_at: at, updated_at: at });
    if (!changed) throw alreadyReviewed(await existingDraft(trx, id));
    return created;
  });
  return { status: 'approved', draft: await getDraft(db, links, reviewer, id), question };
}

export async function rejectDraft(db: Db, links: RecordingLinks, reviewer: Reader, id: number, reason: string): Promise<DraftAuditResult> {
  const draft = await existingDraft(db, id);
  if (draft.status !== 'pending') throw alreadyReviewed(draft);
  const at = now();
  if (!(await updatePendingDraft(db, id, { status: 'rejected', reject_reason: reason, reviewed_by: reviewer.id, reviewed_at: at, updated_at: at }))) {
    throw alreadyReviewed(await existingDraft(db, id));
  }
  return { status: 'rejected', draft: await getDraft(db, links, reviewer, id), question: null };
}
