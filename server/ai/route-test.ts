// "Test connection" for a model route: one tiny request to the route's endpoint with a short timeout, answered as
// ok + latency or the endpoint's failure in words. Nothing is logged in model_calls (it is not a model call of a user).
import type { Db } from '../db/knex.js';
import { AiErrorCode, type RouteTestResult } from '../../contract/ai.js';
import { badRequest, notFound } from '../http/errors.js';
import { findRouteRow, type ModelRouteRow } from './model-routes.repository.js';
import { newProgress, streamCompletion, UpstreamError } from './openai-stream.js';
import { streamLocalCompletion } from './local/local-completion.js';
import { DEFAULT_LOCAL_CONNECT_TIMEOUT_MS } from './chat-route-order.js';

/** The longest a test waits for the headers and then for the first piece of the reply (the route's own timeouts when shorter). */
export const ROUTE_TEST_TIMEOUT_MS = 8_000;

const PING = [{ role: 'user' as const, content: 'Reply with the single word OK.' }];

/**
 * Waits for the first piece of the reply (or the whole JSON answer), then lets the endpoint go. A local-llama route
 * loads its model (waiting for its turn, which does not count) and gets the local connect timeout to do it.
 */
async function testChatRoute(db: Db, route: ModelRouteRow): Promise<RouteTestResult> {
  const short = (ms: number | null) => Math.min(ms ?? ROUTE_TEST_TIMEOUT_MS, ROUTE_TEST_TIMEOUT_MS);
  const local = route.provider === 'local-llama';
  const target = {
    name: route.name,
    base_url: route.base_url,
    api_key: route.api_key,
    model: route.model,
    connectTimeoutMs: local ? (route.connect_timeout_ms ?? DEFAULT_LOCAL_CONNECT_TIMEOUT_MS) : short(route.connect_timeout_ms),
    idleTimeoutMs: short(route.idle_timeout_ms),
  };
  const enough = new AbortController();
  const progress = newProgress();
  const startedAt = Date.now();
  try {
    if (local) await streamLocalCompletion(db, target, { messages: PING }, () => enough.abort(), progress, enough.signal);
    else await streamCompletion(target, PING, () => enough.abort(), progress, enough.signal);
  } catch (err) {
    if (!enough.signal.aborted) {
      return { ok: false, latency_ms: Date.now() - startedAt, error: err instanceof UpstreamError ? err.message : String(err) };
    }
  }
  const latency = (progress.firstTokenAt ?? Date.now()) - startedAt;
  return { ok: true, latency_ms: latency, error: null };
}

/**
 * POST /api/ai/routes/{id}/test. Chat routes only: audio routes are checked by the audio domain (their listing
 * says whether each one can run here).
 */
export async function testRoute(db: Db, id: number): Promise<RouteTestResult> {
  const route = await findRouteRow(db, id);
  if (!route) throw notFound('Model route');
  if (route.kind !== 'chat') throw badRequest('Only chat routes can be tested here', undefined, AiErrorCode.routeTestUnsupported);
  return testChatRoute(db, route);
}
