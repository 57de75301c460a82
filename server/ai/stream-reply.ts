// Answers an HTTP request with a model reply as the chat event stream of spec part 6.
import type { Context } from 'koa';
import type { Db } from '../db/knex.js';
import type { ChatStreamEvent } from '../../contract/ai.js';
import { AppError } from '../http/errors.js';
import { lazyEventStream } from '../http/sse.js';
import type { StreamChatOptions, StreamChatResult } from './llm.js';
import { streamChat } from './chat-client.js';

export interface ModelReplyHooks {
  /** Runs after the whole reply arrived and before `done` is sent (e.g. store the exchange). */
  onComplete?(result: StreamChatResult): Promise<void> | void;
  /** Runs when the reply failed after the stream opened (the client got an `error` event). */
  onStreamFailure?(err: unknown): Promise<void> | void;
}

const clientMessage = (err: unknown) => (err instanceof AppError ? err.message : 'The model reply failed');

const warn = (what: string, err: unknown) => {
  if (process.env.NODE_ENV !== 'test') console.error(`[trainbench] ${what}:`, err);
};

/**
 * Streams `{type:"text"}` events, then `{type:"done", route}`; `{type:"queued", position}` first while the reply
 * waits in line for the local model. The stream opens with the first event, so
 * whatever fails before it (no route: 500 `no_model_route`; every route failed) still answers with the
 * envelope and its status. A failure after that sends `{type:"error", message}` and ends the stream. A client
 * that disconnects aborts the upstream request. Resolves once the stream is open; Koa then pipes it while the
 * rest of the reply is written from the detached model call.
 */
export async function replyWithModelStream(ctx: Context, db: Db, request: Omit<StreamChatOptions, 'onToken' | 'signal'>, hooks: ModelReplyHooks = {}): Promise<void> {
  const disconnect = new AbortController();
  ctx.res.once('close', () => disconnect.abort());
  const events = lazyEventStream(ctx);
  const send = (event: ChatStreamEvent) => events.send(event);

  const call = streamChat(db, {
    ...request,
    signal: disconnect.signal,
    onToken: (content) => send({ type: 'text', content }),
    onQueued: (position) => send({ type: 'queued', position }),
  });
  const finished = call.then(
    async (result) => {
      try {
        await hooks.onComplete?.(result);
      } catch (err) {
        warn('storing a finished model reply failed', err);
      }
      send({ type: 'done', route: result.route });
      events.end();
    },
    async (err: unknown) => {
      if (!events.started) throw err;
      if (!disconnect.signal.aborted) send({ type: 'error', message: clientMessage(err) });
      events.end();
      await hooks.onStreamFailure?.(err);
    },
  );
  try {
    await Promise.race([events.opened, finished]);
  } catch (err) {
    if (disconnect.signal.aborted) return;
    throw err;
  }
  finished.catch((err) => warn('a model reply stream failed after it opened', err));
}
