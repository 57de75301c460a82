import Router from '@koa/router';
import type { Context, Next } from 'koa';
import type { Deps } from '../context.js';
import { CoachingErrorCode } from '../../contract/coaching.js';
import { currentUser } from '../auth/guards.js';
import { AppError } from '../http/errors.js';
import { clientGone } from '../http/client-gone.js';
import { parseBody, parseId, parseQuery } from '../http/validate.js';
import { findCachedUserRow } from '../users/users.repository.js';
import { sendRecording } from '../audio/recordings.js';
import { AuditBody } from '../knowledge/knowledge.schema.js';
import { CallBody, DraftListQuery, DraftUpdate, ReportListQuery, ReviewItemListQuery, ReviewItemUpdate } from './coaching.schema.js';
import { adminListenOff, listReportsFor, mayListen, readReport, visibleReport, type Reader } from './reports.service.js';
import { approveDraft, editDraft, getDraft, getOwnReviewItem, listDraftsFor, listOwnReviewItems, markReviewItem, rejectDraft } from './practice.service.js';
import { RecordingLinks } from './recording-links.js';
import { reportJobs } from './reports.job.js';
import { documented } from '../http/openapi.js';

/**
 * Coaching from customer calls under /api/coaching: reports (the rep's own; every report for admins), the call's
 * audio behind them, the rep's review list, and the review queue of draft questions (admins).
 */
export function coachingRoutes({ db, config, storage, secrets, jobs, requireUser, requireAdmin }: Deps): Router {
  const router = new Router({ prefix: '/coaching' });
  const analyse = reportJobs(db, jobs, config.jobLeaseSeconds);
  const links = new RecordingLinks(secrets.urlSigningSecret);
  const reader = (ctx: Context): Reader => currentUser(ctx);

  router.post('/calls', requireUser, documented({ body: CallBody }), async (ctx) => {
    const input = parseBody(ctx, CallBody);
    // The client going away cancels the analysis (the model call stops), wherever it runs.
    const id = await analyse(reader(ctx), input, clientGone(ctx));
    ctx.status = 201;
    ctx.set('Location', `/api/coaching/reports/${id}`);
    ctx.body = await readReport(db, links, reader(ctx), id);
  });

  router.get('/reports', requireUser, documented({ query: ReportListQuery }), async (ctx) => {
    ctx.body = await listReportsFor(db, reader(ctx), parseQuery(ctx, ReportListQuery));
  });

  router.get('/reports/:id', requireUser, async (ctx) => {
    ctx.body = await readReport(db, links, reader(ctx), parseId(ctx.params.id, 'Coaching report'));
  });

  // The call's audio, seekable: with the Bearer header, or with the signed ?token= of the report's recording.url
  // (an <audio> element cannot send headers). The reader's rights are checked again either way.
  const bearerUnlessToken = (ctx: Context, next: Next) => (typeof ctx.query.token === 'string' ? next() : requireUser(ctx, next));
  router.get('/reports/:id/recording', bearerUnlessToken, async (ctx) => {
    const id = parseId(ctx.params.id, 'Coaching report');
    let listener: Reader;
    if (typeof ctx.query.token === 'string') {
      const checked = links.check(id, ctx.query.token);
      if ('refused' in checked) throw new AppError(401, CoachingErrorCode.invalidRecordingToken, checked.refused === 'expired' ? 'This audio link has expired: read the report again for a fresh one' : 'This audio link is not valid');
      const row = await findCachedUserRow(db, checked.readerId);
      if (!row || row.status !== 'active') throw new AppError(401, CoachingErrorCode.invalidRecordingToken, 'This audio link belongs to an account that is no longer active');
      listener = { id: Number(row.id), role: row.role };
    } else listener = reader(ctx);
    const stored = await visibleReport(db, listener, id);
    if (!(await mayListen(db, listener, stored))) throw adminListenOff();
    await sendRecording(ctx, db, storage, stored.summary.transcription_id);
  });

  router.get('/review-items', requireUser, documented({ query: ReviewItemListQuery }), async (ctx) => {
    ctx.body = await listOwnReviewItems(db, links, reader(ctx), parseQuery(ctx, ReviewItemListQuery));
  });

  router.get('/review-items/:id', requireUser, async (ctx) => {
    ctx.body = await getOwnReviewItem(db, links, reader(ctx), parseId(ctx.params.id, 'Review item'));
  });

  router.put('/review-items/:id', requireUser, documented({ body: ReviewItemUpdate }), async (ctx) => {
    const id = parseId(ctx.params.id, 'Review item');
    const { mastered } = parseBody(ctx, ReviewItemUpdate);
    ctx.body = await markReviewItem(db, links, reader(ctx), id, mastered);
  });

  router.get('/question-drafts', ...requireAdmin, documented({ query: DraftListQuery }), async (ctx) => {
    ctx.body = await listDraftsFor(db, links, reader(ctx), parseQuery(ctx, DraftListQuery));
  });

  router.get('/question-drafts/:id', ...requireAdmin, async (ctx) => {
    ctx.body = await getDraft(db, links, reader(ctx), parseId(ctx.params.id, 'Question draft'));
  });

  router.put('/question-drafts/:id', ...requireAdmin, documented({ body: DraftUpdate }), async (ctx) => {
    const id = parseId(ctx.params.id, 'Question draft');
    ctx.body = await editDraft(db, links, reader(ctx), id, parseBody(ctx, DraftUpdate));
  });

  router.post('/question-drafts/:id/audit', ...requireAdmin, documented({ body: AuditBody }), async (ctx) => {
    const id = parseId(ctx.params.id, 'Question draft');
    const body = parseBody(ctx, AuditBody);
    ctx.body = body.action === 'approve' ? await approveDraft(db, links, reader(ctx), id) : await rejectDraft(db, links, reader(ctx), id, body.reject_reason);
  });

  return router;
}
