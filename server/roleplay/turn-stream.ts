// A turn answered as a server-sent event stream: `{type:"rep_turn", turn}` at once (with its flags), then the
// customer's reply as `{type:"text", content}` pieces as the model writes them, then `{type:"done", customer_turn}`;
// `{type:"error", message}` if the reply breaks. Whatever fails before the stream opens answers in the envelope.
import type { Context } from 'koa';
import type { Db } from '../db/knex.js';
import { openEventStream } from '../http/sse.js';
import { AppError } from '../http/errors.js';
import { beginTurn, completeTurn, customerAnswer, type Reader } from './roleplay.service.js';

const warn = (err: unknown) => {
  if (process.env.NODE_ENV !== 'test') console.error('[trainbench] a role-play turn stream failed:', err);
};

export async function streamTurn(ctx: Context, db: Db, player: Reader, id: number, text: string): Promise<void> {
  const start = await beginTurn(db, player, id, text);
  const events = openEventStream(ctx);
  events.send({ type: 'rep_turn', turn: start.repTurn });
  // Koa pipes the stream once the handler returns; the reply is written from this detached task.
  void (async () => {
    let partial = '';
    try {
      const answer = await customerAnswer(
        db,
        start,
        (piece) => {
          partial += piece;
          events.send({ type: 'text', content: piece });
        },
        events.signal,
      );
      const reply = await completeTurn(db, start, answer);
      events.send({ type: 'done', customer_turn: reply.customer_turn });
    } catch (err) {
      // The rep's words are kept, with as much of the customer's answer as arrived (or the scripted line).
      await completeTurn(db, start, partial.trim() || start.scripted).catch(warn);
      events.send({ type: 'error', message: err instanceof AppError ? err.message : 'The customer’s reply failed' });
      if (!events.signal.aborted) warn(err);
    } finally {
      events.end();
    }
  })();
}
