import { createParser } from 'eventsource-parser';
import { apiUrl, authHeaders, errorFrom, isAbort, networkError } from './client';

/**
 * POSTs `body` and reads the answer as a server-sent event stream (spec part 6: one JSON object per `data:`
 * line). A failure before the stream opens rejects with the envelope's ApiError; resolves when the stream ends.
 */
export async function postEventStream<E>(path: string, body: unknown, onEvent: (event: E) => void, signal?: AbortSignal): Promise<void> {
  let res: Response;
  try {
    res = await fetch(apiUrl(path), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...authHeaders() },
      body: JSON.stringify(body),
      signal,
    });
  } catch (err) {
    if (isAbort(err)) throw err;
    throw networkError();
  }
  if (!res.ok || !res.body) throw await errorFrom(res);

  const parser = createParser({
    onEvent: (message) => {
      let event: E;
      try {
        event = JSON.parse(message.data) as E;
      } catch {
        return; // not one of ours: ignore rather than end the conversation
      }
      onEvent(event);
    },
  });
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    parser.feed(value);
  }
}
