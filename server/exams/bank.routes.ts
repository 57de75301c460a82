// Admin: the question bank and exam papers.
import Router from '@koa/router';
import type { Deps } from '../context.js';
import { parseBody, parseId, parseQuery } from '../http/validate.js';
import { PaperCreate, PaperListQuery, PaperUpdate, QuestionCreate, QuestionListQuery, QuestionUpdate } from './exams.schema.js';
import { createQuestion, disableQuestion, getQuestion, listQuestions, updateQuestion } from './questions.service.js';
import { domainCounts } from './questions.repository.js';
import { createPaper, deactivatePaper, getPaper, listPapers, updatePaper } from './papers.service.js';
import { documented } from '../http/openapi.js';

export function bankRoutes({ db, requireAdmin }: Deps): Router {
  const router = new Router({ prefix: '/exam' });

  router.get('/questions', ...requireAdmin, documented({ query: QuestionListQuery }), async (ctx) => {
    ctx.body = await listQuestions(db, parseQuery(ctx, QuestionListQuery));
  });
  router.get('/questions/domains', ...requireAdmin, async (ctx) => {
    ctx.body = await domainCounts(db);
  });
  router.get('/questions/:id', ...requireAdmin, async (ctx) => {
    ctx.body = await getQuestion(db, parseId(ctx.params.id, 'Question'));
  });
  router.post('/questions', ...requireAdmin, documented({ body: QuestionCreate }), async (ctx) => {
    const question = await createQuestion(db, parseBody(ctx, QuestionCreate));
    ctx.status = 201;
    ctx.body = question;
  });
  router.put('/questions/:id', ...requireAdmin, documented({ body: QuestionUpdate }), async (ctx) => {
    const id = parseId(ctx.params.id, 'Question');
    ctx.body = await updateQuestion(db, id, parseBody(ctx, QuestionUpdate));
  });
  router.delete('/questions/:id', ...requireAdmin, async (ctx) => {
    ctx.body = await disableQuestion(db, parseId(ctx.params.id, 'Question'));
  });

  router.get('/papers', ...requireAdmin, documented({ query: PaperListQuery }), async (ctx) => {
    ctx.body = await listPapers(db, parseQuery(ctx, PaperListQuery));
  });
  router.get('/papers/:id', ...requireAdmin, async (ctx) => {
    ctx.body = await getPaper(db, parseId(ctx.params.id, 'Exam paper'));
  });
  router.post('/papers', ...requireAdmin, documented({ body: PaperCreate }), async (ctx) => {
    const paper = await createPaper(db, parseBody(ctx, PaperCreate));
    ctx.status = 201;
    ctx.body = paper;
  });
  router.put('/papers/:id', ...requireAdmin, documented({ body: PaperUpdate }), async (ctx) => {
    const id = parseId(ctx.params.id, 'Exam paper');
    ctx.body = await updatePaper(db, id, parseBody(ctx, PaperUpdate));
  });
  router.delete('/papers/:id', ...requireAdmin, async (ctx) => {
    ctx.body = await deactivatePaper(db, parseId(ctx.params.id, 'Exam paper'));
  });

  return router;
}
