// The system parameters a central server gives its branches, as one down entity (`parameters`): the company
// introduction always, and the parameters an admin listed in `branch_parameters` (docs/sync.md).
import type { Db } from '../db/knex.js';
import { now } from '../db/time.js';
import { readConfig } from '../system/config.service.js';
import { configDefinition } from '../system/config.definitions.js';

export { PARAMETERS_GID } from '../db/migrations/016_sync_more.js';
export const PARAMETERS_ENTITY = 'parameters';

/** Always sent: the company introduction's text (its media go down as media bound to the company). */
const ALWAYS = ['company_intro_content'];

/** Central: the values that travel, by name. */
export async function parametersWire(db: Db): Promise<Record<string, unknown>> {
  const config = await readConfig(db);
  const marked = Array.isArray(config.branch_parameters) ? (config.branch_parameters as string[]) : [];
  const names = [...new Set([...ALWAYS, ...marked])].filter((name) => name !== 'branch_parameters' && name in config);
  return { values: Object.fromEntries(names.map((name) => [name, config[name]])) };
}

/** Branch: each known parameter that validates is written as the central server's (an unknown or invalid one is skipped); the caller clears the config cache after commit. */
export async function applyParameters(db: Db, data: Record<string, unknown>): Promise<void> {
  const values = (data.values ?? {}) as Record<string, unknown>;
  const stamp = now();
  for (const [key, value] of Object.entries(values)) {
    const parsed = key === 'branch_parameters' ? undefined : configDefinition(key)?.schema.safeParse(value);
    if (!parsed?.success) continue;
    await db('system_config').insert({ key, value: JSON.stringify(parsed.data), updated_at: stamp }).onConflict('key').merge(['value', 'updated_at']);
  }
}
