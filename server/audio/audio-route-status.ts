// GET /api/ai/routes/audio: the enabled audio routes in the order they are tried, each saying whether it can run
// here and, when not, exactly what is missing.
import type { Db } from '../db/knex.js';
import type { AiRoute } from '../../contract/ai.js';
import type { AudioRouteStatus } from '../../contract/audio.js';
import { listRouteRows, toAiRoute } from '../ai/model-routes.repository.js';
import { audioRouteOrder } from './audio-route-order.js';
import { localRouteMissing } from './local-whisper.js';
import type { ModelDirs } from './models.js';
import { allowedRoutes } from './transcribe.service.js';

export async function listAudioRouteStatus(db: Db, dirs: ModelDirs): Promise<(AiRoute & AudioRouteStatus)[]> {
  const [rows, order, allowed] = await Promise.all([listRouteRows(db, { kind: 'audio', enabledOnly: true }), audioRouteOrder(db), allowedRoutes(db, true)]);
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  return Promise.all(
    order.map(async (route) => {
      const missing = route.provider === 'local-whisper' ? await localRouteMissing(route.model, dirs) : [];
      if (allowed.refused && allowed.skipped.some((r) => r.id === route.id)) missing.push(`cloud route not used: ${allowed.refused.message}`);
      // is_local as the route order sees it: a local-whisper route is local whatever its flag says.
      return { ...toAiRoute(byId.get(route.id)!), is_local: route.is_local, available: !missing.length, reason_unavailable: missing.length ? missing.join('; ') : null };
    }),
  );
}
