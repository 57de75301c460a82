import type { Db } from '../db/knex.js';
import { toBool, toNullableNumber } from '../db/rows.js';
import { listRouteRows, type ModelRouteRow } from '../ai/model-routes.repository.js';
import type { AudioRouteRef } from '../../contract/audio.js';

/** An enabled audio route with what it takes to call it (the key in clear: never sent to clients). */
export interface AudioRoute extends AudioRouteRef {
  id: number;
  base_url: string;
  api_key: string;
  model: string;
  connect_timeout_ms: number | null;
  idle_timeout_ms: number | null;
}

/** whisper.cpp runs in this process, so a `local-whisper` route is local whatever its is_local flag says. */
const isLocal = (row: ModelRouteRow): boolean => toBool(row.is_local) || row.provider === 'local-whisper';

const toAudioRoute = (row: ModelRouteRow): AudioRoute => ({
  id: Number(row.id),
  name: row.name,
  provider: row.provider,
  is_local: isLocal(row),
  base_url: row.base_url,
  api_key: row.api_key,
  model: row.model,
  connect_timeout_ms: toNullableNumber(row.connect_timeout_ms),
  idle_timeout_ms: toNullableNumber(row.idle_timeout_ms),
});

export const routeRef = ({ id, name, provider, is_local }: AudioRoute): AudioRouteRef => ({ id, name, provider, is_local });

/** The enabled audio routes in the order they are tried: local ones first, then cloud ones; each by priority, then id. */
export async function audioRouteOrder(db: Db): Promise<AudioRoute[]> {
  const routes = (await listRouteRows(db, { kind: 'audio', enabledOnly: true })).map(toAudioRoute);
  return [...routes.filter((r) => r.is_local), ...routes.filter((r) => !r.is_local)];
}
