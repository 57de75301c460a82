import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { StorageSettings } from './storage/settings.js';
import type { LevelWithSilent } from 'pino';
import { defaultLogTarget, type LogTarget } from './log/structured.js';

/** How many reverse proxies in front of the server add X-Forwarded-For; 0: the header is ignored. */
export type ProxyHops = number;

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
  /**
   * Secrets given by the environment (JWT_SECRET, URL_SIGNING_SECRET, PACK_SIGNING_KEY); what is not given is
   * generated once per install (server/security/secrets.ts: DATA_DIR/secrets.json on SQLite, the database on
   * PostgreSQL, so that every node of a cluster shares them).
   */
  jwtSecret?: string;
  urlSigningSecret?: string;
  /** An ed25519 private key in PKCS#8 PEM. */
  packSigningKey?: string;
  /**
   * Honour X-Forwarded-For/-Proto (only behind a reverse proxy that sets them; TRUST_PROXY=1, or the number of
   * proxies in front); a number counts the addresses taken from the right of X-Forwarded-For.
   */
  trustProxy?: boolean | ProxyHops;
  /** A branch's periodic sync, in seconds (SYNC_INTERVAL_SECONDS; docs/sync.md). */
  syncIntervalSeconds?: number;
  /** Where user files live: DATA_DIR (the default) or an S3 bucket (STORAGE=s3, S3_*; docs/storage.md). */
  storage: StorageSettings;
  /**
   * Tests only, never read from the environment: how often the assignments' reminder scan runs (a minute by
   * default). The tests move time itself with the test clock (server/clock.ts).
   */
  reminderScanMs?: number;
  /** How long a node may hold a background job before another takes it over (JOB_LEASE_SECONDS; PostgreSQL). */
  jobLeaseSeconds: number;
  /** How long after a submit's commit its review cards are derived at the latest (REVIEW_DERIVE_AFTER_MS). */
  reviewDeriveAfterMs: number;
  /** How often lost leases are looked for (JOB_MAINTENANCE_SECONDS; PostgreSQL). */
  jobMaintenanceSeconds: number;
  /** How long SIGTERM waits for running requests and streams before closing them (SHUTDOWN_GRACE_SECONDS). */
  shutdownGraceSeconds: number;
  /** GET /metrics answers only with `Authorization: Bearer <METRICS_TOKEN>`; unset, it is not served at all. */
  metricsToken?: string;
  /** Where the server's JSON log lines go (LOG_TARGET): stdout on a server, DATA_DIR/logs/server.log on a laptop. */
  logTarget: LogTarget;
  /** The lowest level written (LOG_LEVEL). */
  logLevel: LevelWithSilent;
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

/** A start refused for a bad environment variable; the message names it. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

// An empty variable is an unset one (as `FOO= npm run server` means).
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (value === '' ? undefined : value), schema.optional());
const wholeNumber = (min: number, max: number, what: string) =>
  z
    .string()
    .regex(/^\d+$/, `must be a whole number ${what}`)
    .transform(Number)
    .pipe(z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));
const flag = z.enum(['1', 'true', '0', 'false'], { message: 'must be 1, true, 0 or false' }).transform((v) => v === '1' || v === 'true');
const secret = z.string().min(16, 'must be at least 16 characters');

/** Every environment variable the server reads, in one place (the table in docs/deploy.md). */
export const EnvSchema = z
  .object({
    PORT: optional(wholeNumber(0, 65535, 'from 0 to 65535')),
    HOST: optional(z.string()),
    DATA_DIR: optional(z.string()),
    KNOWLEDGE_DIR: optional(z.string()),
    DATABASE_URL: optional(z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL (leave it unset for SQLite in DATA_DIR)')),
    DATABASE_SCHEMA: optional(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, 'must be a PostgreSQL identifier (letters, digits, _)')),
    ADMIN_USERNAME: optional(z.string().max(64)),
    ADMIN_PASSWORD: optional(z.string()),
    JWT_SECRET: optional(secret),
    URL_SIGNING_SECRET: optional(secret),
    PACK_SIGNING_KEY: optional(z.string().includes('PRIVATE KEY', { message: 'must be an ed25519 private key in PKCS#8 PEM' })),
    TRUST_PROXY: optional(
      z.union([flag, wholeNumber(1, 16, 'of proxies from 1 to 16')], { message: 'must be 1 or true (one proxy), a number of proxies up to 16, or 0/false' }),
    ),
    SYNC_INTERVAL_SECONDS: optional(wholeNumber(10, 86_400, 'of seconds from 10 to 86400')),
    JOB_LEASE_SECONDS: optional(wholeNumber(5, 86_400, 'of seconds from 5 to 86400')),
    REVIEW_DERIVE_AFTER_MS: optional(wholeNumber(1, 600_000, 'of milliseconds from 1 to 600000')),
    JOB_MAINTENANCE_SECONDS: optional(wholeNumber(1, 3600, 'of seconds from 1 to 3600')),
    SHUTDOWN_GRACE_SECONDS: optional(wholeNumber(0, 3600, 'of seconds from 0 to 3600')),
    STORAGE: optional(z.enum(['local', 's3'], { message: 'must be local or s3' })),
    S3_BUCKET: optional(z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name (3-63 lowercase letters, digits, dots, dashes)')),
    S3_ENDPOINT: optional(z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' })),
    S3_REGION: optional(z.string().min(1)),
    S3_FORCE_PATH_STYLE: optional(flag),
    METRICS_TOKEN: optional(z.string().min(16, 'must be at least 16 characters').regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')),
    LOG_TARGET: optional(z.enum(['stdout', 'file'], { message: 'must be stdout or file' })),
    LOG_LEVEL: optional(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { message: 'must be fatal, error, warn, info, debug, trace or silent' })),
  })
  .superRefine((env, ctx) => {
    if (env.STORAGE === 's3' && !env.S3_BUCKET) ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'is required when STORAGE=s3' });
  });

export type ParsedEnv = z.infer<typeof EnvSchema>;

/** Parses the environment; a bad value throws a ConfigError naming every bad variable and what it must be. */
export function parseEnv(env: NodeJS.ProcessEnv): ParsedEnv {
  const parsed = EnvSchema.safeParse(env);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => {
    const name = String(issue.path[0] ?? 'environment');
    const given = env[name];
    return `${name} ${issue.message}${given !== undefined && !/SECRET|PASSWORD|KEY|TOKEN/.test(name) ? ` (got ${JSON.stringify(given)})` : ''}`;
  });
  throw new ConfigError(`invalid configuration: ${lines.join('; ')}`);
}

/** The storage block (server/storage/settings.ts's shape), from the parsed variables. */
function storageConfig(env: ParsedEnv): StorageSettings {
  if (env.STORAGE !== 's3') return { kind: 'local' };
  return { kind: 's3', bucket: env.S3_BUCKET!, endpoint: env.S3_ENDPOINT, region: env.S3_REGION ?? 'us-east-1', forcePathStyle: env.S3_FORCE_PATH_STYLE ?? false };
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env, overrides: Partial<AppConfig> = {}): AppConfig {
  const e = parseEnv(env);
  const dataDir = path.resolve(overrides.dataDir ?? e.DATA_DIR ?? defaultDataDir());
  return {
    host: e.HOST ?? '127.0.0.1',
    port: e.PORT ?? 3210,
    dataDir,
    knowledgeDir: path.resolve(e.KNOWLEDGE_DIR ?? path.join(projectRoot(), 'knowledge-sources')),
    databaseUrl: e.DATABASE_URL,
    adminUsername: e.ADMIN_USERNAME ?? 'admin',
    adminPassword: e.ADMIN_PASSWORD,
    databaseSchema: e.DATABASE_SCHEMA,
    jwtSecret: e.JWT_SECRET,
    urlSigningSecret: e.URL_SIGNING_SECRET,
    packSigningKey: e.PACK_SIGNING_KEY,
    trustProxy: e.TRUST_PROXY,
    syncIntervalSeconds: e.SYNC_INTERVAL_SECONDS,
    storage: storageConfig(e),
    shutdownGraceSeconds: e.SHUTDOWN_GRACE_SECONDS ?? 20,
    jobLeaseSeconds: e.JOB_LEASE_SECONDS ?? 900,
    reviewDeriveAfterMs: e.REVIEW_DERIVE_AFTER_MS ?? 100,
    jobMaintenanceSeconds: e.JOB_MAINTENANCE_SECONDS ?? 30,
    metricsToken: e.METRICS_TOKEN,
    logTarget: e.LOG_TARGET ?? defaultLogTarget(e.DATABASE_URL),
    logLevel: e.LOG_LEVEL ?? 'info',
    ...overrides,
  };
}

/** Koa's proxy settings: how many X-Forwarded-For entries, from the right, were added by proxies we trust. */
export function proxyHops(trustProxy: AppConfig['trustProxy']): number {
  if (trustProxy === true) return 1;
  return typeof trustProxy === 'number' ? trustProxy : 0;
}
