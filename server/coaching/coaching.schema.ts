import { z } from 'zod';
import { Paging, QueryBool } from '../http/validate.js';
import { LooseDate } from '../http/dates.js';
import { QuestionUpdate } from '../exams/exams.schema.js';

const id = z.number().int().positive().max(2_147_483_647);
const queryId = z.coerce.number().int().positive().max(2_147_483_647);

/** A transcription, or a task run whose documents include one (the first, or the one at document_index). */
export const CallBody = z
  .object({
    transcription_id: id.optional(),
    /** The transcript revision to analyse (transcription_id only); the latest when omitted. */
    revision: id.optional(),
    task_id: id.optional(),
    run_id: id.optional(),
    document_index: z.number().int().min(0).max(1000).optional(),
    rep_speaker: z.string({ error: 'is required' }).trim().min(1, 'is required').max(100),
    product_id: id.nullable().optional(),
  })
  .superRefine((v, ctx) => {
    const byRun = v.task_id !== undefined || v.run_id !== undefined;
    if ((v.transcription_id === undefined) === !byRun) {
      ctx.addIssue({ code: 'custom', path: ['transcription_id'], message: 'give transcription_id, or task_id and run_id (one of them)' });
    } else if (byRun && (v.task_id === undefined || v.run_id === undefined)) {
      ctx.addIssue({ code: 'custom', path: [v.task_id === undefined ? 'task_id' : 'run_id'], message: 'task_id and run_id go together' });
    }
  });
export type CallInput = z.output<typeof CallBody>;

const isoDate = LooseDate('must be a date (ISO 8601)');

export const ReportListQuery = Paging.extend({
  /** Admins only: one rep's reports (ignored for a rep, who sees only their own). */
  user_id: queryId.optional(),
  product_id: queryId.optional(),
  transcription_id: queryId.optional(),
  /** created_at bounds, inclusive (dates or timestamps). */
  from: isoDate.optional(),
  to: isoDate.optional(),
});
export type ReportFilter = z.output<typeof ReportListQuery>;

export const ReviewItemListQuery = Paging.extend({
  mastered: QueryBool.optional(),
  report_id: queryId.optional(),
});

export const ReviewItemUpdate = z.object({ mastered: z.boolean({ error: 'must be true or false' }) });

export const DraftListQuery = Paging.extend({
  status: z.enum(['pending', 'approved', 'rejected', 'all']).default('pending'),
  user_id: queryId.optional(),
  report_id: queryId.optional(),
});
export type DraftFilter = z.output<typeof DraftListQuery>;

/** An admin's edits of a pending draft: the question fields the bank takes. */
export const DraftUpdate = QuestionUpdate.pick({ domain: true, type: true, stem: true, options: true, answer: true, explanation: true });
export type DraftEdits = z.output<typeof DraftUpdate>;
