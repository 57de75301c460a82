import type { Db } from '../db/knex.js';
import { listRouteRows } from './model-routes.repository.js';
import { readConfigValue } from '../system/config.service.js';
import type { CompletionTarget } from './openai-stream.js';
import type { AiProvider } from '../../contract/ai.js';
import { toBool } from '../db/rows.js';
import { isLoopbackUrl } from './model-routes.service.js';

export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
/** A local model may have to load first (seconds for gigabytes from disk) and read a long prompt. */
export const DEFAULT_LOCAL_CONNECT_TIMEOUT_MS = 120_000;
/** The name logged for the route made of the llm_* system parameters. */
export const CONFIG_ROUTE_NAME = 'system config';

/** The three llm_* parameters, from the cached system configuration. */
async function llmConfig(db: Db): Promise<Record<'llm_base_url' | 'llm_api_key' | 'llm_model', string>> {
  // readConfigValue reads the cached configuration in place; readConfig would copy all of it for three values.
  const text = async (key: string) => String((await readConfigValue<string>(db, key)) ?? '');
  const [llm_base_url, llm_api_key, llm_model] = await Promise.all([text('llm_base_url'), text('llm_api_key'), text('llm_model')]);
  return { llm_base_url, llm_api_key, llm_model };
}

export interface ChatRoute extends CompletionTarget {
  /** null for the system-config route. */
  id: number | null;
  name: string;
  provider: AiProvider;
  /** Runs on this computer: a local-llama route, or one flagged is_local (a server on this machine). */
  is_local: boolean;
}

/**
 * The chat routes in the order they are tried: the system-config route (llm_base_url + llm_model set) first,
 * then the enabled chat routes by ascending priority, ties by id. With llm_local_first on, the routes that run on
 * this computer come first (in that order), then the others.
 */
export async function chatRouteOrder(db: Db): Promise<ChatRoute[]> {
  const [config, rows, localFirst] = await Promise.all([llmConfig(db), listRouteRows(db, { kind: 'chat', enabledOnly: true }), readConfigValue<boolean>(db, 'llm_local_first')]);
  const routes: ChatRoute[] = [];
  const baseUrl = config.llm_base_url.trim();
  const model = config.llm_model.trim();
  if (baseUrl && model) {
    routes.push({
      id: null,
      name: CONFIG_ROUTE_NAME,
      provider: 'openai-compatible',
      is_local: isLoopbackUrl(baseUrl),
      base_url: baseUrl,
      api_key: config.llm_api_key,
      model,
      connectTimeoutMs: DEFAULT_CONNECT_TIMEOUT_MS,
      idleTimeoutMs: DEFAULT_IDLE_TIMEOUT_MS,
    });
  }
  for (const row of rows) {
    const local = row.provider === 'local-llama';
    routes.push({
      id: Number(row.id),
      name: row.name,
      provider: row.provider,
      is_local: local || toBool(row.is_local),
      base_url: row.base_url,
      api_key: row.api_key,
      model: row.model,
      connectTimeoutMs: row.connect_timeout_ms ?? (local ? DEFAULT_LOCAL_CONNECT_TIMEOUT_MS : DEFAULT_CONNECT_TIMEOUT_MS),
      idleTimeoutMs: row.idle_timeout_ms ?? DEFAULT_IDLE_TIMEOUT_MS,
    });
  }
  return localFirst ? [...routes.filter((r) => r.is_local), ...routes.filter((r) => !r.is_local)] : routes;
}
