// GET /api/ai/routes/audio: the enabled audio routes in the order they are tried, each saying whether it can run
// here and, when not, exactly what is missing; a local route also says whether it can tell speakers apart by voice
// (and if not, why) and which ffmpeg decodes.
import type { Db } from '../db/knex.js';
import type { AiRoute } from '../../contract/ai.js';
import type { AudioRouteStatus } from '../../contract/audio.js';
import { listRouteRows, toAiRoute } from '../ai/model-routes.repository.js';
import { audioRouteOrder } from './audio-route-order.js';
import { localRouteMissing } from './local-whisper.js';
import type { ModelDirs } from './models.js';
import { allowedRoutes } from './transcribe.service.js';
import { decoderInfo } from './ffmpeg.js';
import { usableSpeakerModels } from './speakers/speaker-models.js';

export async function listAudioRouteStatus(db: Db, dirs: ModelDirs): Promise<(AiRoute & AudioRouteStatus)[]> {
  const [rows, order, allowed] = await Promise.all([listRouteRows(db, { kind: 'audio', enabledOnly: true }), audioRouteOrder(db), allowedRoutes(db, true)]);
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  // Speaker models are checked (loaded in a child process) once per set of files, and only when a local route needs them.
  const speakers = order.some((r) => r.provider === 'local-whisper') ? (await usableSpeakerModels(db, dirs)).capability : undefined;
  const decoder = await decoderInfo();
  return Promise.all(
    order.map(async (route) => {
      const local = route.provider === 'local-whisper';
      const missing = local ? await localRouteMissing(route.model, dirs) : [];
      if (allowed.refused && allowed.skipped.some((r) => r.id === route.id)) missing.push(`cloud route not used: ${allowed.refused.message}`);
      // is_local as the route order sees it: a local-whisper route is local whatever its flag says.
      return {
        ...toAiRoute(byId.get(route.id)!),
        is_local: route.is_local,
        available: !missing.length,
        reason_unavailable: missing.length ? missing.join('; ') : null,
        ...(local && speakers && { speakers }),
        ...(local && decoder && { decoder }),
      };
    }),
  );
}
