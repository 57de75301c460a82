// The model-call log: one row per attempt on a route, written by the chat client, read by admins.
import type { Db } from '../db/knex.js';
import { paginate } from '../db/paginate.js';
import type { Page } from '../../contract/envelope.js';
import type { ModelCall } from '../../contract/ai.js';
import { toNullableNumber } from '../db/rows.js';
import { now } from '../db/time.js';
import type { CallListFilter } from './model-routes.schema.js';
import type { StreamChatOptions } from './llm.js';

/** An attempt as the client reports it; the caller's log fields come from StreamChatOptions.log. */
export type CallEntry = Omit<ModelCall, 'id' | 'created_at' | 'user_id' | 'specialist_key' | 'task_id' | 'purpose' | 'error'> &
  NonNullable<StreamChatOptions['log']> & { error?: string };

const MAX_ERROR_CHARS = 1000;

/** Never fails the call it describes: a log write that fails is reported and dropped. */
export async function recordCall(db: Db, entry: CallEntry): Promise<number | null> {
  try {
    const [row] = await db('model_calls')
      .insert({
        route_id: entry.route_id,
        route_name: entry.route_name,
        model: entry.model,
        user_id: entry.user_id ?? null,
        specialist_key: entry.specialist_key?.slice(0, 100) ?? null,
        task_id: entry.task_id ?? null,
        purpose: (entry.purpose ?? '').slice(0, 50),
        status: entry.status,
        error: (entry.error ?? '').slice(0, MAX_ERROR_CHARS),
        attempt: entry.attempt,
        latency_ms: entry.latency_ms,
        first_token_ms: entry.first_token_ms,
        prompt_chars: entry.prompt_chars,
        reply_chars: entry.reply_chars,
        prompt_tokens: entry.prompt_tokens,
        completion_tokens: entry.completion_tokens,
        created_at: now(),
      })
      .returning('id');
    return Number((row as { id: number }).id);
  } catch (err) {
    if (process.env.NODE_ENV !== 'test') console.error('[trainbench] model call log write failed:', err);
    return null;
  }
}

type CallRow = Omit<ModelCall, 'id'> & { id: number | string };

const toModelCall = (r: CallRow): ModelCall => ({
  ...r,
  id: Number(r.id),
  route_id: toNullableNumber(r.route_id),
  user_id: toNullableNumber(r.user_id),
  task_id: toNullableNumber(r.task_id),
  attempt: Number(r.attempt),
  latency_ms: Number(r.latency_ms),
  first_token_ms: toNullableNumber(r.first_token_ms),
  prompt_chars: Number(r.prompt_chars),
  reply_chars: Number(r.reply_chars),
  prompt_tokens: toNullableNumber(r.prompt_tokens),
  completion_tokens: toNullableNumber(r.completion_tokens),
});

/** Newest first. */
export async function listCalls(db: Db, filter: CallListFilter): Promise<Page<ModelCall>> {
  const where = (q: ReturnType<Db>) => {
    for (const key of ['status', 'specialist_key', 'user_id', 'route_id'] as const) if (filter[key] !== undefined) q.where(key, filter[key]);
    return q;
  };
  return paginate(where(db('model_calls')), filter, (q) => q.orderBy('id', 'desc'), toModelCall);
}
