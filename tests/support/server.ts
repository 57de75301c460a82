import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import knexFactory from 'knex';
import { configFromEnv, type AppConfig } from '../../server/config.js';
import { startServer, type RunningServer } from '../../server/start.js';
import { ApiClient } from './client.js';

export const ADMIN_PASSWORD = 'admin-pass-123';
export const usingPostgres = process.env.TEST_DB === 'postgres';
const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestServer {
  url: string;
  server: RunningServer;
  config: AppConfig;
  dataDir: string;
  api: ApiClient;
  adminToken: string;
  /** Creates an active user through the admin API and logs in as them. */
  user(role?: 'employee' | 'admin', fields?: Record<string, unknown>): Promise<{ id: number; username: string; token: string }>;
  /** Stops the server (the data stays, for restart tests). */
  stop(): Promise<void>;
  /** Starts the server again on the same data (on the same port when asked: a browser page can then reconnect). */
  restart(options?: { samePort?: boolean }): Promise<void>;
  close(): Promise<void>;
}

/**
 * Serves the real app on 127.0.0.1:0 over a fresh DATA_DIR: a new SQLite file, or with TEST_DB=postgres a schema
 * of its own in the test database, dropped at close.
 */
export async function startTestServer(overrides: Partial<AppConfig> = {}): Promise<TestServer> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-test-'));
  const schema = usingPostgres ? `tb_${crypto.randomBytes(6).toString('hex')}` : undefined;
  const config = configFromEnv(
    { ...process.env, JWT_SECRET: 'test-secret-' + crypto.randomBytes(8).toString('hex') },
    {
      dataDir,
      host: '127.0.0.1',
      port: 0,
      adminUsername: 'admin',
      adminPassword: ADMIN_PASSWORD,
      databaseUrl: usingPostgres ? POSTGRES_URL : undefined,
      databaseSchema: schema,
      knowledgeDir: path.join(dataDir, 'knowledge'),
      ...overrides,
    },
  );
  let server = await startServer(config);
  const api = new ApiClient(server.url);
  const adminToken = await api.login('admin', ADMIN_PASSWORD);
  let counter = 0;
  let running = true;

  const ts: TestServer = {
    get url() {
      return server.url;
    },
    get server() {
      return server;
    },
    config,
    dataDir,
    api,
    adminToken,
    async user(role = 'employee', fields = {}) {
      const username = `${role}${++counter}_${crypto.randomBytes(3).toString('hex')}`;
      const res = await api.post('/api/system/users', { token: adminToken, body: { username, password: 'secret-pass', full_name: `Full ${username}`, role, ...fields } });
      if (res.status !== 201) throw new Error(`creating user failed: ${res.status} ${JSON.stringify(res.body)}`);
      return { id: res.body.data.id, username, token: await api.login(username, 'secret-pass') };
    },
    async stop() {
      if (!running) return;
      running = false;
      await server.close();
    },
    async restart({ samePort = false } = {}) {
      const port = samePort ? Number(new URL(server.url).port) : 0;
      await ts.stop();
      server = await startServer({ ...config, port });
      api.baseUrl = server.url;
      running = true;
    },
    async close() {
      await ts.stop();
      if (schema) {
        const admin = knexFactory({ client: 'pg', connection: POSTGRES_URL });
        // pg-boss keeps the server's background jobs in a schema beside it (server/jobs/pg-boss.ts).
        for (const each of [schema, `${schema}_jobs`]) await admin.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [each]);
        await admin.destroy();
      }
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
  return ts;
}
