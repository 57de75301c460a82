import Router from '@koa/router';
import type { Context } from 'koa';
import type { Deps } from '../context.js';
import { currentUser } from '../auth/guards.js';
import { forbidden } from '../http/errors.js';
import { parseBody, parseId, parseQuery } from '../http/validate.js';
import { LeaderboardQuery, ProgressUpdate, UserScopeQuery } from './learning.schema.js';
import { courseProgress, progressOverview, updateProgress } from './progress.service.js';
import { leaderboard, pointsSummary } from './points.service.js';
import { myPosition } from './my-position.service.js';
import { documented } from '../http/openapi.js';

/** The user whose data is asked for: the caller, or with `user_id` another user for an admin (403 for an employee). */
function scopedUserId(ctx: Context): number {
  const me = currentUser(ctx);
  const { user_id } = parseQuery(ctx, UserScopeQuery);
  if (user_id === undefined || user_id === me.id) return me.id;
  if (me.role !== 'admin') throw forbidden("Only administrators may look at another user's learning data");
  return user_id;
}

/** Learning progress, points and the leaderboard under /learning. */
export function learningRoutes({ db, requireUser }: Deps): Router {
  const router = new Router({ prefix: '/learning' });

  router.get('/progress', requireUser, async (ctx) => {
    ctx.body = await progressOverview(db, scopedUserId(ctx));
  });
  router.get('/progress/:courseId', requireUser, async (ctx) => {
    ctx.body = await courseProgress(db, scopedUserId(ctx), parseId(ctx.params.courseId, 'Course'));
  });
  router.put('/progress/:courseId', requireUser, documented({ body: ProgressUpdate }), async (ctx) => {
    const courseId = parseId(ctx.params.courseId, 'Course');
    ctx.body = await updateProgress(db, currentUser(ctx).id, courseId, parseBody(ctx, ProgressUpdate).status);
  });
  router.get('/my-position', requireUser, async (ctx) => {
    const me = currentUser(ctx);
    ctx.body = await myPosition(db, me.position_id, me.id);
  });
  router.get('/points', requireUser, async (ctx) => {
    ctx.body = await pointsSummary(db, scopedUserId(ctx));
  });
  router.get('/leaderboard', requireUser, documented({ query: LeaderboardQuery }), async (ctx) => {
    ctx.body = await leaderboard(db, parseQuery(ctx, LeaderboardQuery));
  });

  return router;
}
