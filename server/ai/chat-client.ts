import type { Db } from '../db/knex.js';
import { AiErrorCode } from '../../contract/ai.js';
import { AppError } from '../http/errors.js';
import type { StreamChat, StreamChatOptions } from './llm.js';
import { chatRouteOrder, type ChatRoute } from './chat-route-order.js';
import { newProgress, streamCompletion, type CompletionProgress } from './openai-stream.js';
import { recordCall } from './model-calls.js';
import { streamLocalCompletion } from './local/local-completion.js';

/** The first route plus one retry on the next. */
const MAX_ATTEMPTS = 2;

export const noModelRoute = () =>
  new AppError(500, AiErrorCode.noModelRoute, 'No usable model route: set llm_base_url and llm_model in the system configuration or add an enabled chat route');

const abortError = (reason: unknown) => (reason instanceof Error ? reason : new DOMException('The caller aborted the model call', 'AbortError'));

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

async function logAttempt(db: Db, route: ChatRoute, options: StreamChatOptions, attempt: number, startedAt: number, progress: CompletionProgress, error?: unknown) {
  const status = error === undefined ? 'ok' : options.signal?.aborted ? 'aborted' : 'failed';
  return recordCall(db, {
    route_id: route.id,
    route_name: route.name,
    model: route.model,
    ...options.log,
    status,
    error: error === undefined ? '' : messageOf(error),
    attempt,
    latency_ms: Date.now() - startedAt,
    first_token_ms: progress.firstTokenAt === null ? null : progress.firstTokenAt - startedAt,
    prompt_chars: options.messages.reduce((n, m) => n + m.content.length, 0),
    reply_chars: progress.text.length,
    prompt_tokens: progress.promptTokens,
    completion_tokens: progress.completionTokens,
  });
}

/**
 * See StreamChat in ./llm.ts. Every attempt is logged in model_calls. Errors: 500 `no_model_route` when no route
 * is configured; 500 `model_route_failed` when every route tried failed before its first token; 500
 * `model_stream_failed` when the reply broke after it started (pieces already went to onToken); the caller's
 * abort reason (an AbortError) when options.signal aborted.
 */
export const streamChat: StreamChat = async (db, options) => {
  const routes = (await chatRouteOrder(db)).slice(0, MAX_ATTEMPTS);
  if (!routes.length) throw noModelRoute();
  const failures: string[] = [];
  for (const [index, route] of routes.entries()) {
    const startedAt = Date.now();
    const progress = newProgress();
    try {
      const text =
        route.provider === 'local-llama'
          ? await streamLocalCompletion(db, route, options, options.onToken, progress, options.signal)
          : await streamCompletion(route, options.messages, options.onToken, progress, options.signal);
      const callId = await logAttempt(db, route, options, index + 1, startedAt, progress);
      return { route: { id: route.id, name: route.name, model: route.model, local: route.is_local }, text, call_id: callId, attempts: index + 1 };
    } catch (err) {
      await logAttempt(db, route, options, index + 1, startedAt, progress, err);
      if (options.signal?.aborted) throw abortError(options.signal.reason);
      if (progress.firstTokenAt !== null) {
        throw new AppError(500, AiErrorCode.modelStreamFailed, `The model reply broke off (route "${route.name}"): ${messageOf(err)}`);
      }
      failures.push(`"${route.name}": ${messageOf(err)}`);
    }
  }
  throw new AppError(500, AiErrorCode.modelRouteFailed, `The model could not be reached: ${failures.join('; ')}`);
};
