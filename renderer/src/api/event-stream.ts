import { createParser } from 'eventsource-parser';
import { apiUrl, authHeaders, errorFrom, isAbort, networkError } from './client';

/**
 * The events of an answer read as a server-sent event stream (spec part 6: one JSON object per `data:` line), until
 * it ends. A failure before the stream opens throws the envelope's ApiError.
 */
async function* events<E>(request: () => Promise<Response>): AsyncGenerator<E> {
  let res: Response;
  try {
    res = await request();
  } catch (err) {
    if (isAbort(err)) throw err;
    throw networkError();
  }
  if (!res.ok || !res.body) throw await errorFrom(res);

  const parsed: E[] = [];
  const parser = createParser({
    onEvent: (message) => {
      try {
        parsed.push(JSON.parse(message.data) as E);
      } catch {
        // not one of ours: ignore rather than end the conversation
      }
    },
  });
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    parser.feed(value);
    yield* parsed.splice(0);
  }
}

/**
 * POSTs `body` and reads the answer as an event stream. A failure before the stream opens rejects with the
 * envelope's ApiError; resolves when the stream ends.
 */
export async function postEventStream<E>(path: string, body: unknown, onEvent: (event: E) => void, signal?: AbortSignal): Promise<void> {
  const request = () => fetch(apiUrl(path), { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...authHeaders() }, body: JSON.stringify(body), signal });
  for await (const event of events<E>(request)) onEvent(event);
}

/** Follows a GET event stream (a job's progress): its events as they come, for TanStack's streamedQuery. */
export const getEventStream = <E>(path: string, signal?: AbortSignal): AsyncGenerator<E> =>
  events<E>(() => fetch(apiUrl(path), { headers: { accept: 'text/event-stream', ...authHeaders() }, signal }));
