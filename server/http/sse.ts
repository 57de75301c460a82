import { PassThrough } from 'node:stream';
import type { Context } from 'koa';
import { sendRaw } from './envelope.js';

export interface EventStream {
  /** Writes one `data: <json>` event. */
  send(event: unknown): void;
  end(): void;
  /** Aborted when the client disconnects; pass it to upstream requests. */
  signal: AbortSignal;
  readonly closed: boolean;
}

/**
 * Switches the response to a server-sent event stream (Koa guide: a PassThrough body with text/event-stream).
 * Once this is called the envelope no longer applies; failures must go out as events.
 */
export function openEventStream(ctx: Context): EventStream {
  sendRaw(ctx);
  const controller = new AbortController();
  const stream = new PassThrough();
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    controller.abort();
  };
  ctx.req.socket.setTimeout(0);
  ctx.req.socket.setNoDelay(true);
  ctx.res.on('close', close);
  ctx.set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
  ctx.status = 200;
  ctx.body = stream;
  return {
    send(event) {
      if (!closed) stream.write(`data: ${JSON.stringify(event)}\n\n`);
    },
    end() {
      if (!stream.writableEnded) stream.end();
      closed = true;
    },
    signal: controller.signal,
    get closed() {
      return closed;
    },
  };
}

export interface LazyEventStream {
  /** Resolves when the stream has been opened (headers about to go out). */
  opened: Promise<void>;
  open(): EventStream;
  readonly started: boolean;
  send(event: unknown): void;
  end(): void;
}

/**
 * An event stream that opens on first use, optionally announcing `first`. Until it opens, a failure can still be
 * answered in the envelope with its own status (e.g. 500 no_model_route): Koa sends a stream body only after the
 * handler returns, so handlers await `opened` (or their own failure) and write the rest from a detached task.
 */
export function lazyEventStream(ctx: Context, first?: unknown): LazyEventStream {
  let stream: EventStream | undefined;
  let markOpened!: () => void;
  const opened = new Promise<void>((resolve) => (markOpened = resolve));
  const open = (): EventStream => {
    if (!stream) {
      stream = openEventStream(ctx);
      if (first !== undefined) stream.send(first);
      markOpened();
    }
    return stream;
  };
  return {
    opened,
    open,
    get started() {
      return stream !== undefined;
    },
    send: (event) => open().send(event),
    end: () => open().end(),
  };
}
