// Spaced review (docs/api/review.md): the caller's queue, answers, cards and due self-test; the admins' figures.
import Router from '@koa/router';
import type { Deps } from '../context.js';
import { currentUser } from '../auth/guards.js';
import { parseBody, parseId, parseQuery } from '../http/validate.js';
import { AnswerBody, SelfTestBody, StatsQuery } from './review.schema.js';
import { answerCard, cardSummary, reviewQueue, startDueSelfTest } from './review.service.js';
import { reviewStats } from './review.stats.js';
import { documented } from '../http/openapi.js';

export function reviewRoutes({ db, requireUser, requireAdmin }: Deps): Router {
  const router = new Router({ prefix: '/review' });

  router.get('/queue', requireUser, async (ctx) => {
    ctx.body = await reviewQueue(db, currentUser(ctx));
  });
  router.post('/answers', requireUser, documented({ body: AnswerBody }), async (ctx) => {
    ctx.body = await answerCard(db, currentUser(ctx), parseBody(ctx, AnswerBody));
  });
  router.get('/cards/:id', requireUser, async (ctx) => {
    ctx.body = await cardSummary(db, currentUser(ctx), parseId(ctx.params.id, 'Review card'));
  });
  router.post('/self-test', requireUser, documented({ body: SelfTestBody }), async (ctx) => {
    ctx.body = await startDueSelfTest(db, currentUser(ctx), parseBody(ctx, SelfTestBody).limit);
  });
  router.get('/stats', ...requireAdmin, documented({ query: StatsQuery }), async (ctx) => {
    ctx.body = await reviewStats(db, parseQuery(ctx, StatsQuery));
  });

  return router;
}
