import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import crypto from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { mkdirPrivateSync, PRIVATE_FILE_MODE } from './data-dir.js';
import { storageSettingsFromEnv, type StorageSettings } from './storage/settings.js';

export interface AppConfig {
  host: string;
  port: number;
  dataDir: string;
  knowledgeDir: string;
  /** Knowledge sources shipped with the packaged app, copied into knowledgeDir at start (see knowledge/seed.ts). */
  knowledgeSeedDir?: string;
  databaseUrl?: string;
  /** PostgreSQL schema (tests run each suite in its own). */
  databaseSchema?: string;
  adminUsername: string;
  adminPassword?: string;
  jwtSecret: string;
  /** Honour X-Forwarded-For/-Proto (only behind a reverse proxy that sets them; TRUST_PROXY=1). */
  trustProxy?: boolean;
  /** A branch's periodic sync, in seconds (SYNC_INTERVAL_SECONDS; docs/sync.md). */
  syncIntervalSeconds?: number;
  /** Where user files live: DATA_DIR (the default) or an S3 bucket (STORAGE=s3, S3_*; docs/storage.md). */
  storage: StorageSettings;
  /**
   * Tests only, never read from the environment: the clock of assignments (due dates, overdue, reminders) and how
   * often their reminder scan runs.
   */
  testClock?: { now(): number; scanIntervalMs?: number };
}

export const SERVICE_NAME = 'trainbench';
export { API_VERSION } from '../contract/envelope.js';

/** The repository (or packaged app) root: two levels above this file, whether run from source or from dist/. */
export function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

export function defaultDataDir(): string {
  return path.join(os.homedir(), '.trainbench');
}

/** The per-install JWT secret: generated once, kept in DATA_DIR readable by the owner only. */
export function installSecret(dataDir: string, name: string): string {
  mkdirPrivateSync(dataDir);
  const file = path.join(dataDir, 'secrets.json');
  const secrets: Record<string, string> = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
  if (!secrets[name]) {
    secrets[name] = crypto.randomBytes(48).toString('base64url');
    fs.writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: PRIVATE_FILE_MODE });
  }
  return secrets[name]!;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env, overrides: Partial<AppConfig> = {}): AppConfig {
  const dataDir = path.resolve(overrides.dataDir ?? env.DATA_DIR ?? defaultDataDir());
  const port = Number(env.PORT ?? 3210);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be an integer from 0 to 65535, got ${env.PORT}`);
  return {
    host: env.HOST || '127.0.0.1',
    port,
    dataDir,
    knowledgeDir: path.resolve(env.KNOWLEDGE_DIR ?? path.join(projectRoot(), 'knowledge-sources')),
    databaseUrl: env.DATABASE_URL || undefined,
    adminUsername: env.ADMIN_USERNAME || 'admin',
    adminPassword: env.ADMIN_PASSWORD || undefined,
    databaseSchema: env.DATABASE_SCHEMA || undefined,
    jwtSecret: env.JWT_SECRET || installSecret(dataDir, 'jwt_secret'),
    trustProxy: env.TRUST_PROXY === '1' || env.TRUST_PROXY === 'true',
    syncIntervalSeconds: env.SYNC_INTERVAL_SECONDS ? Number(env.SYNC_INTERVAL_SECONDS) : undefined,
    storage: storageSettingsFromEnv(env),
    ...overrides,
  };
}
