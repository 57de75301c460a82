import path from 'node:path';
import fs from 'node:fs';
import knexFactory, { type Knex } from 'knex';
import { migrationSource } from './migrations/index.js';

export type Db = Knex | Knex.Transaction;

export interface DatabaseOptions {
  /** A postgres:// URL selects PostgreSQL; otherwise SQLite in dataDir. */
  url?: string;
  dataDir: string;
  /** PostgreSQL schema to use (created if missing); lets tests run side by side in one database. */
  schema?: string;
}

export const isPostgres = (db: Db): boolean => db.client.config.client === 'pg';

function sqliteConfig(dataDir: string): Knex.Config {
  fs.mkdirSync(dataDir, { recursive: true });
  return {
    client: 'sqlite3',
    connection: { filename: path.join(dataDir, 'trainbench.sqlite') },
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

export async function openDatabase(options: DatabaseOptions): Promise<Knex> {
  const pg = !!options.url && /^postgres(ql)?:\/\//.test(options.url);
  if (pg && options.schema) {
    const admin = knexFactory({ client: 'pg', connection: options.url });
    await admin.raw('CREATE SCHEMA IF NOT EXISTS ??', [options.schema]);
    await admin.destroy();
  }
  const db = knexFactory(pg ? postgresConfig(options.url!, options.schema) : sqliteConfig(options.dataDir));
  await db.migrate.latest({ migrationSource });
  return db;
}
