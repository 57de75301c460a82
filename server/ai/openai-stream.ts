// One streamed completion against one OpenAI-compatible endpoint: POST {base_url}/chat/completions, stream:true.
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { ChatMessage } from './llm.js';

export interface CompletionTarget {
  base_url: string;
  api_key: string;
  model: string;
  /** Until the response headers arrive. */
  connectTimeoutMs: number;
  /** Longest silence between two pieces of the body once the headers are in. */
  idleTimeoutMs: number;
}

/** What happened so far; filled while streaming so a failure can still report it. */
export interface CompletionProgress {
  firstTokenAt: number | null;
  text: string;
  promptTokens: number | null;
  completionTokens: number | null;
}

/** The endpoint failed or broke the protocol (as opposed to the caller aborting). */
export class UpstreamError extends Error {
  override name = 'UpstreamError';
}

interface CompletionChunk {
  choices?: { delta?: { content?: unknown }; message?: { content?: unknown } }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  error?: { message?: string } | string;
}

const MAX_EVENT_CHARS = 1_000_000;

export const newProgress = (): CompletionProgress => ({ firstTokenAt: null, text: '', promptTokens: null, completionTokens: null });

const completionsUrl = (baseUrl: string) => `${baseUrl.replace(/\/+$/, '')}/chat/completions`;

/** An error's message with its network cause (ECONNREFUSED…), for attempt reports. */
export function describe(err: unknown): string {
  const e = err as { message?: string; cause?: { code?: string; message?: string } };
  const cause = e?.cause?.code ?? e?.cause?.message;
  return [e?.message ?? String(err), cause].filter(Boolean).join(': ');
}

/** The reason an endpoint gave with a failing status, as ': reason' ('' when none). */
export async function errorDetail(res: Response): Promise<string> {
  const body = await res.text().catch(() => '');
  try {
    const parsed = JSON.parse(body) as CompletionChunk;
    const message = typeof parsed.error === 'string' ? parsed.error : parsed.error?.message;
    if (message) return `: ${message.slice(0, 300)}`;
  } catch {
    // not JSON: fall through to the raw text
  }
  return body ? `: ${body.slice(0, 300)}` : '';
}

/** Streams the reply, calling onToken for each non-empty piece; resolves with the whole text. */
export async function streamCompletion(
  target: CompletionTarget,
  messages: ChatMessage[],
  onToken: (text: string) => void,
  progress: CompletionProgress,
  signal?: AbortSignal,
): Promise<string> {
  const controller = new AbortController();
  const forwardAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', forwardAbort, { once: true });
  const expire = (message: string) => () => controller.abort(new UpstreamError(message));
  let timer = setTimeout(expire(`no response within ${target.connectTimeoutMs} ms`), target.connectTimeoutMs);
  const rearmIdle = () => {
    clearTimeout(timer);
    timer = setTimeout(expire(`no data for ${target.idleTimeoutMs} ms`), target.idleTimeoutMs);
  };
  const emit = (piece: unknown) => {
    if (typeof piece !== 'string' || piece === '') return;
    progress.firstTokenAt ??= Date.now();
    progress.text += piece;
    onToken(piece);
  };
  const absorb = (chunk: CompletionChunk) => {
    if (chunk.error) throw new UpstreamError(typeof chunk.error === 'string' ? chunk.error : (chunk.error.message ?? 'the model reported an error'));
    const choice = chunk.choices?.[0];
    emit(choice?.delta?.content ?? choice?.message?.content);
    if (chunk.usage) {
      progress.promptTokens = chunk.usage.prompt_tokens ?? progress.promptTokens;
      progress.completionTokens = chunk.usage.completion_tokens ?? progress.completionTokens;
    }
  };

  try {
    if (signal?.aborted) throw signal.reason;
    const res = await fetch(completionsUrl(target.base_url), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        ...(target.api_key && { authorization: `Bearer ${target.api_key}` }),
      },
      body: JSON.stringify({ model: target.model, messages, stream: true }),
      signal: controller.signal,
    });
    if (!res.ok) throw new UpstreamError(`HTTP ${res.status}${await errorDetail(res)}`);
    rearmIdle();
    // A server that ignores stream:true answers one JSON completion.
    if (res.headers.get('content-type')?.includes('application/json')) {
      absorb((await res.json()) as CompletionChunk);
      if (progress.firstTokenAt === null) throw new UpstreamError('the model answered nothing');
      return progress.text;
    }
    if (!res.body) throw new UpstreamError('empty response body');
    let finished = false;
    const parser = createParser({
      maxBufferSize: MAX_EVENT_CHARS,
      onEvent(event: EventSourceMessage) {
        if (finished) return;
        if (event.data.trim() === '[DONE]') {
          finished = true;
          return;
        }
        let chunk: CompletionChunk;
        try {
          chunk = JSON.parse(event.data) as CompletionChunk;
        } catch {
          throw new UpstreamError('the stream carried an event that is not JSON');
        }
        absorb(chunk);
      },
      onError(error) {
        if (error.type === 'max-buffer-size-exceeded') throw new UpstreamError('a stream event exceeded the size limit');
      },
    });
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    try {
      while (!finished) {
        const { value, done } = await reader.read();
        if (done) break;
        rearmIdle();
        parser.feed(value);
      }
    } finally {
      await reader.cancel().catch(() => undefined);
    }
    // A stream that carried no text, cut before [DONE] or not, is a failed route (worth the retry): an empty reply
    // would be shown and kept as the assistant's answer.
    if (progress.firstTokenAt === null) throw new UpstreamError(finished ? 'the model answered nothing' : 'the stream ended before any reply');
    return progress.text;
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    if (controller.signal.aborted) throw controller.signal.reason;
    throw err instanceof UpstreamError ? err : new UpstreamError(describe(err));
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', forwardAbort);
  }
}
