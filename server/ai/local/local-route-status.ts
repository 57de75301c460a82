// GET /api/ai/routes: each local-llama route says whether its model file is here and can be loaded, what memory it
// needs and whether it is in memory now.
import type { Db } from '../../db/knex.js';
import type { AiRoute, LocalRouteStatus } from '../../../contract/ai.js';
import type { ModelDirs } from '../../audio/models.js';
import { localModelPlan } from './local-completion.js';
import { localLlm } from './llm-runtime.js';

export async function localRouteStatus(db: Db, dirs: ModelDirs, model: string): Promise<LocalRouteStatus> {
  // A listing does not fetch a stored model onto this node: its memory need is known once it has run here.
  const plan = await localModelPlan(db, dirs, model, { fetch: false });
  const memoryBytes = 'memoryBytes' in plan ? plan.memoryBytes : null;
  return {
    present: plan.present,
    loadable: !plan.problem,
    memory_bytes: memoryBytes ?? null,
    memory_available_bytes: localLlm.availableMemory(),
    loaded: 'found' in plan && plan.found !== undefined && localLlm.loadedFile === plan.found.path,
    reason: plan.problem ?? null,
  };
}

export async function withLocalStatus(db: Db, dirs: ModelDirs, routes: AiRoute[]): Promise<AiRoute[]> {
  return Promise.all(routes.map(async (route) => (route.provider === 'local-llama' ? { ...route, local_model: await localRouteStatus(db, dirs, route.model) } : route)));
}
