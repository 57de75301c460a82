// Central and branch servers as real processes (`npm run server`'s entry point) for the sync tests.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import { startCli, stopCli, type StartedCli } from './cli.js';
import { ApiClient } from './client.js';
import { ADMIN_PASSWORD } from './server.js';

const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface Node {
  api: ApiClient;
  adminToken: string;
  dataDir: string;
  port: number;
  /** The node's database, opened beside the server (to look at or tamper with what it stored). */
  database(): Knex;
  /** What the process printed since it was last started. */
  output(): string;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** A server process on a fresh DATA_DIR; `postgres` puts its database in a schema of its own. */
export async function startNode(options: { postgres: boolean; env?: Record<string, string> }): Promise<Node> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-sync-'));
  const schema = options.postgres ? `tb_sync_${crypto.randomBytes(5).toString('hex')}` : undefined;
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    PORT: '0',
    ADMIN_PASSWORD,
    JWT_SECRET: crypto.randomBytes(16).toString('hex'),
    SYNC_INTERVAL_SECONDS: '3600',
    KNOWLEDGE_DIR: path.join(dataDir, 'knowledge'),
    ...(schema ? { DATABASE_URL: POSTGRES_URL, DATABASE_SCHEMA: schema } : {}),
    ...options.env,
  };
  let cli: StartedCli | undefined;
  let db: Knex | undefined;
  const node: Node = {
    api: new ApiClient(''),
    adminToken: '',
    dataDir,
    port: 0,
    output: () => cli?.output ?? '',
    database() {
      db ??= schema
        ? knexFactory({ client: 'pg', connection: POSTGRES_URL, searchPath: [schema], pool: { min: 0, max: 2 } })
        : knexFactory({ client: 'sqlite3', connection: { filename: path.join(dataDir, 'trainbench.sqlite') }, useNullAsDefault: true, pool: { min: 1, max: 1, afterCreate: (c: { exec: (s: string, cb: (e: Error | null) => void) => void }, done: (e: Error | null, c: unknown) => void) => c.exec('PRAGMA busy_timeout = 5000;', (e) => done(e, c)) } });
      return db;
    },
    async start() {
      cli = await startCli(env);
      node.api.baseUrl = cli.url;
      node.port = Number(new URL(cli.url).port);
      node.adminToken = await node.api.login('admin', ADMIN_PASSWORD);
    },
    async stop() {
      if (cli) await stopCli(cli.child);
      cli = undefined;
    },
    async close() {
      await node.stop();
      await db?.destroy();
      if (schema) {
        const admin = knexFactory({ client: 'pg', connection: POSTGRES_URL });
        await admin.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [schema]);
        await admin.destroy();
      }
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
  await node.start();
  return node;
}
