import Router from '@koa/router';
import type { Context } from 'koa';
import type { Deps } from '../context.js';
import { currentUser } from '../auth/guards.js';
import { parseBody, parseQuery } from '../http/validate.js';
import { replyWithModelStream } from '../ai/stream-reply.js';
import { HistoryQuery, MessageBody, QuickActionBody } from './chat.schema.js';
import { coachPrompt } from './coach.js';
import { appendExchange, clearHistory, recentMessages } from './history.js';
import { quickActions, runQuickAction } from './quick-actions.js';
import { documented } from '../http/openapi.js';

/** Aborted when the client goes away before the response is complete. */
function clientGone(ctx: Context): AbortSignal {
  const controller = new AbortController();
  ctx.res.once('close', () => controller.abort());
  return controller.signal;
}

/** The AI coach under /api/ai-chat (spec 4.8): the streamed chat, its history and the quick actions. */
export function chatRoutes({ db, requireUser }: Deps): Router {
  const router = new Router({ prefix: '/ai-chat' });
  router.use(requireUser);

  router.post('/message', documented({ body: MessageBody }), async (ctx) => {
    const user = currentUser(ctx);
    const input = parseBody(ctx, MessageBody);
    const { messages, product } = await coachPrompt(db, user, input);
    await replyWithModelStream(
      ctx,
      db,
      { messages, log: { user_id: user.id, purpose: 'coach' } },
      { onComplete: (result) => appendExchange(db, user.id, product?.id ?? null, input.message, result.text) },
    );
  });

  router.get('/quick-actions', (ctx) => {
    ctx.body = { actions: quickActions() };
  });

  router.post('/quick-action', documented({ body: QuickActionBody }), async (ctx) => {
    const { action_id, params } = parseBody(ctx, QuickActionBody);
    const user = currentUser(ctx);
    ctx.body = await runQuickAction(db, action_id, params, { userId: user.id, role: user.role, signal: clientGone(ctx) });
  });

  router.get('/history', documented({ query: HistoryQuery }), async (ctx) => {
    const { limit } = parseQuery(ctx, HistoryQuery);
    ctx.body = { messages: await recentMessages(db, currentUser(ctx).id, limit) };
  });

  router.delete('/history', async (ctx) => {
    ctx.body = { deleted: await clearHistory(db, currentUser(ctx).id) };
  });

  return router;
}
