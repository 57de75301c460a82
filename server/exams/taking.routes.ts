// Any user: the exam list and cover, starting, autosaving and submitting sessions, and the mistake book.
import Router from '@koa/router';
import type { Deps } from '../context.js';
import { currentUser } from '../auth/guards.js';
import { notFound } from '../http/errors.js';
import { parseBody, parseId, parseQuery } from '../http/validate.js';
import { MistakeQuery, PaperIdQuery, RetryBody, SaveAnswersBody, StartBody, SubmitBody } from './exams.schema.js';
import { examCover, listExams } from './standing.service.js';
import { getSessionState, saveAnswers, sessionExplanations, startExam, startRetry } from './sessions.service.js';
import { submitExam } from './submit.service.js';
import type { SubmitPipeline } from './submit-pipeline.js';
import { deleteMistake, listMistakes } from './mistakes.repository.js';
import { documented } from '../http/openapi.js';

export function takingRoutes({ db, requireUser }: Deps, pipeline: SubmitPipeline): Router {
  const router = new Router({ prefix: '/exam' });

  router.get('/list', requireUser, async (ctx) => {
    ctx.body = await listExams(db, currentUser(ctx));
  });
  router.get('/cover', requireUser, documented({ query: PaperIdQuery }), async (ctx) => {
    ctx.body = await examCover(db, currentUser(ctx), parseQuery(ctx, PaperIdQuery).id);
  });
  router.post('/start', requireUser, documented({ body: StartBody }), async (ctx) => {
    ctx.body = await startExam(db, currentUser(ctx), parseBody(ctx, StartBody).paper_id);
  });
  router.get('/sessions/:sessionId', requireUser, async (ctx) => {
    ctx.body = await getSessionState(db, currentUser(ctx), ctx.params.sessionId!);
  });
  router.get('/sessions/:sessionId/explanations', requireUser, async (ctx) => {
    ctx.body = await sessionExplanations(db, currentUser(ctx), ctx.params.sessionId!);
  });
  router.put('/sessions/:sessionId/answers', requireUser, documented({ body: SaveAnswersBody }), async (ctx) => {
    ctx.body = await saveAnswers(db, currentUser(ctx), ctx.params.sessionId!, parseBody(ctx, SaveAnswersBody).answers);
  });
  router.post('/submit', requireUser, documented({ body: SubmitBody }), async (ctx) => {
    ctx.body = await submitExam(db, pipeline, currentUser(ctx), parseBody(ctx, SubmitBody));
  });

  router.get('/mistakes', requireUser, documented({ query: MistakeQuery }), async (ctx) => {
    ctx.body = await listMistakes(db, currentUser(ctx), parseQuery(ctx, MistakeQuery));
  });
  router.delete('/mistakes/:id', requireUser, async (ctx) => {
    const id = parseId(ctx.params.id, 'Mistake');
    if (!(await deleteMistake(db, currentUser(ctx).id, id))) throw notFound('Mistake');
    ctx.body = { id, deleted: true };
  });
  router.post('/mistakes/retry', requireUser, documented({ body: RetryBody }), async (ctx) => {
    ctx.body = await startRetry(db, currentUser(ctx), parseBody(ctx, RetryBody));
  });

  return router;
}
