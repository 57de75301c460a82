import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Knex } from 'knex';
import type { AppConfig } from './config.js';
import { openDatabase } from './db/knex.js';
import { createApp, type RouteInfo } from './app.js';
import { ensureAdmin } from './users/bootstrap.js';
import { preparePrivateDataDir } from './data-dir.js';

export interface RunningServer {
  url: string;
  port: number;
  db: Knex;
  /** Every route the API answers. */
  routes: RouteInfo[];
  /** Set when this start created the admin with a generated password. */
  generatedAdminPassword?: string;
  close(): Promise<void>;
}

export interface StartOptions {
  /** Where start-up notices go (a DATA_DIR that had to be tightened); the console by default. */
  log?: (message: string) => void;
}

const consoleLog = (message: string) => console.log(`[trainbench] ${message}`);

/**
 * Makes DATA_DIR owner-only, opens the database (migrating it), makes sure an admin exists, and listens on
 * config.host:config.port (0 = any free port).
 */
export async function startServer(config: AppConfig, { log = consoleLog }: StartOptions = {}): Promise<RunningServer> {
  preparePrivateDataDir(config.dataDir, log);
  const db = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, schema: config.databaseSchema });
  const admin = await ensureAdmin(db, config.adminUsername, config.adminPassword);
  const trainbench = createApp({ db, config });
  const server = http.createServer(trainbench.app.callback());
  // Uploads of up to 200 MB over a slow link must not be cut off by Node's default request timeout.
  server.requestTimeout = 0;
  server.headersTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return {
    url: `http://${host}:${port}`,
    port,
    db,
    routes: trainbench.routes,
    generatedAdminPassword: admin.generatedPassword,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await trainbench.close();
      await db.destroy();
    },
  };
}
