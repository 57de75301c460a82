import type { Context } from 'koa';

/** Aborted when the client goes away before the response is written (its work is cancelled: the model call, the job). */
export function clientGone(ctx: Context): AbortSignal {
  const controller = new AbortController();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) controller.abort(new Error('the client went away'));
  });
  return controller.signal;
}
