import type { Db } from '../db/knex.js';
import type { SystemConfig } from '../../contract/system.js';
import { now } from '../db/time.js';
import { validationFailed } from '../http/errors.js';
import { configDefinition, configDefinitions } from './config.definitions.js';
import { clearAfterWrite, perDatabase } from '../db/read-cache.js';

type Value = SystemConfig[string];

/** A secret is shown as its last four characters behind asterisks, never in clear. */
export function maskSecret(value: string): string {
  if (!value) return '';
  return `****${value.length > 8 ? value.slice(-4) : ''}`;
}

async function storedValues(db: Db): Promise<Map<string, Value>> {
  const rows: { key: string; value: string }[] = await db('system_config').select('key', 'value');
  return new Map(rows.map((r) => [r.key, JSON.parse(r.value) as Value]));
}

/** Read on hot paths (every chunk of an upload, every login); writeConfig clears it. */
const configCache = perDatabase<SystemConfig>({ name: 'system-config', maxBytes: 256 * 1024, ttlMs: 5_000 });

/** For writers outside this module (parameters arriving from the central server). */
export const configChanged = (db: Db): void => clearAfterWrite(configCache(db), db);

async function loadConfig(db: Db): Promise<SystemConfig> {
  const stored = await storedValues(db);
  const out: SystemConfig = {};
  for (const [key, def] of Object.entries(configDefinitions)) out[key] = stored.get(key) ?? def.default;
  return out;
}

/** Every parameter with its value in clear, for server-side use only (a copy: callers may change it). */
export async function readConfig(db: Db): Promise<SystemConfig> {
  return { ...(await configCache(db).get('config', () => loadConfig(db))) };
}

export async function readConfigValue<T extends Value>(db: Db, key: string): Promise<T> {
  return (await configCache(db).get('config', () => loadConfig(db)))![key] as T;
}

/** What an admin sees: secrets masked. */
export function publicConfig(config: SystemConfig): SystemConfig {
  const out: SystemConfig = {};
  for (const [key, value] of Object.entries(config)) {
    out[key] = configDefinition(key)?.secret ? maskSecret(String(value)) : value;
  }
  return out;
}

/** Validates every given parameter first, then writes them all or none. A masked secret sent back unchanged keeps the stored one. */
export async function writeConfig(db: Db, configs: Record<string, unknown>): Promise<SystemConfig> {
  const current = await readConfig(db);
  const updates: [string, Value][] = [];
  const errors: { path: string; message: string }[] = [];
  for (const [key, raw] of Object.entries(configs)) {
    const def = configDefinition(key);
    if (!def) {
      errors.push({ path: `configs.${key}`, message: 'unknown parameter' });
      continue;
    }
    if (def.secret && typeof raw === 'string' && raw !== '' && raw === maskSecret(String(current[key]))) continue;
    const parsed = def.schema.safeParse(raw);
    if (!parsed.success) errors.push({ path: `configs.${key}`, message: parsed.error.issues[0]?.message ?? 'invalid value' });
    else updates.push([key, parsed.data]);
  }
  if (errors.length) throw validationFailed(`Invalid ${errors[0]!.path}: ${errors[0]!.message}`, errors);
  const stamp = now();
  await db.transaction(async (trx) => {
    for (const [key, value] of updates) {
      await trx('system_config')
        .insert({ key, value: JSON.stringify(value), updated_at: stamp })
        .onConflict('key')
        .merge(['value', 'updated_at']);
    }
  });
  configChanged(db);
  return readConfig(db);
}
