import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { migrationSource } from './migrations/index.js';
import { withStartupLock } from './startup-lock.js';
import { PreparedSqlite3Client } from './sqlite-client.js';
import { keepFilePrivate, mkdirPrivateSync } from '../data-dir.js';

export type Db = Knex | Knex.Transaction;

export interface DatabaseOptions {
  /** A postgres:// URL selects PostgreSQL; otherwise SQLite in dataDir. */
  url?: string;
  dataDir: string;
  /** PostgreSQL schema to use (created if missing); lets tests run side by side in one database. */
  schema?: string;
}

export const isPostgres = (db: Db): boolean => db.client.config.client === 'pg';

/**
 * SQLite creates the -wal and -shm files with the permissions of the database file, so creating that one owner-only
 * keeps all three private (an older, looser database is tightened).
 */
function privateDatabaseFile(dataDir: string): string {
  mkdirPrivateSync(dataDir);
  const filename = path.join(dataDir, 'trainbench.sqlite');
  for (const file of [filename, `${filename}-wal`, `${filename}-shm`]) keepFilePrivate(file, file === filename);
  return filename;
}

function sqliteConfig(dataDir: string): Knex.Config {
  return {
    client: PreparedSqlite3Client as unknown as typeof Knex.Client,
    connection: { filename: privateDatabaseFile(dataDir) },
    useNullAsDefault: true,
    pool: {
      min: 1,
      max: 1,
      afterCreate(conn: { exec: (sql: string, cb: (err: Error | null) => void) => void }, done: (err: Error | null, conn: unknown) => void) {
        conn.exec(
          'PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000; PRAGMA synchronous = NORMAL;',
          (err) => done(err, conn),
        );
      },
    },
  };
}

function postgresConfig(url: string, schema?: string): Knex.Config {
  return {
    client: 'pg',
    connection: url,
    searchPath: schema ? [schema] : undefined,
    pool: { min: 0, max: 10 },
  };
}

/** What the About dialog shows: the engine, its version and the last migration applied. */
export interface DatabaseInfo {
  engine: 'SQLite' | 'PostgreSQL';
  version: string;
  schema: string;
}

export async function databaseInfo(db: Knex): Promise<DatabaseInfo> {
  const pg = isPostgres(db);
  const version = pg
    ? String((await db.raw('SHOW server_version')).rows[0].server_version)
    : String((await db.raw('SELECT sqlite_version() AS v'))[0].v);
  const last = await db('knex_migrations').orderBy('id', 'desc').first('name');
  return { engine: pg ? 'PostgreSQL' : 'SQLite', version, schema: String(last?.name ?? '') };
}

/**
 * Closes the pool. On SQLite the write-ahead log is first folded into the database file and emptied
 * (wal_checkpoint(TRUNCATE)), so a clean stop leaves one self-contained file behind; returns whether it was.
 */
export async function closeDatabase(db: Knex): Promise<{ checkpointed: boolean }> {
  let checkpointed = false;
  if (!isPostgres(db)) {
    const [row] = (await db.raw('PRAGMA wal_checkpoint(TRUNCATE)')) as { busy: number }[];
    checkpointed = row?.busy === 0;
  }
  await db.destroy();
  return { checkpointed };
}

/**
 * Whether exactly the app's migrations, each once, are recorded as done: then knex's migrator has nothing to do, and
 * the start skips its lock table round trips (one read instead of a locked write transaction). Anything else (a new
 * database, pending migrations, an unknown one) goes through the migrator as before.
 */
async function migrationsUpToDate(db: Knex): Promise<boolean> {
  const done: unknown[] | undefined = await db('knex_migrations').pluck('name').catch(() => undefined);
  if (!done) return false;
  const names = await migrationSource.getMigrations([]);
  const recorded = new Set(done.map(String));
  return done.length === names.length && recorded.size === names.length && names.every((name) => recorded.has(name));
}

/**
 * Opens the database and brings it up to date; `prepare` (the first admin, the install's secrets) runs next, under the
 * same start-up lock on PostgreSQL (startup-lock.ts), so any number of nodes may start together on an empty one.
 */
export async function openDatabase(options: DatabaseOptions, prepare?: (db: Knex) => Promise<void>): Promise<Knex> {
  const pg = !!options.url && /^postgres(ql)?:\/\//.test(options.url);
  const db = knexFactory(pg ? postgresConfig(options.url!, options.schema) : sqliteConfig(options.dataDir));
  try {
    const ready = !prepare && (await migrationsUpToDate(db));
    if (!ready) {
      await withStartupLock(pg ? options.url : undefined, options.schema, async () => {
        if (pg && options.schema) await db.raw('CREATE SCHEMA IF NOT EXISTS ??', [options.schema]);
        if (!(await migrationsUpToDate(db))) await db.migrate.latest({ migrationSource });
        await prepare?.(db);
      });
    }
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return db;
}
