import http from 'node:http';
import { decoderInfo } from './audio/ffmpeg.js';
import type { DecoderInfo } from '../contract/audio.js';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Knex } from 'knex';
import { API_VERSION, type AppConfig } from './config.js';
import { createKnowledgeStorage, createStorage } from './storage/index.js';
import { closeDatabase, databaseInfo, isPostgres, openDatabase, type DatabaseInfo } from './db/knex.js';
import { createApp, type RouteInfo } from './app.js';
import { ensureAdmin } from './users/bootstrap.js';
import { preparePrivateDataDir } from './data-dir.js';
import { describeUncleanStop, markRunning, markStopped } from './lifecycle.js';
import { silentLogger, type Logger } from './log/logger.js';
import { appVersion, type UpdateStatusBoard } from './system/update-status.js';
import { seedKnowledgeSources } from './knowledge/seed.js';
import { nodeId } from './node-id.js';
import { failInterruptedRuns } from './workbench/tasks.repository.js';
import { startCacheBus } from './db/cache-bus.js';
import { loadInstallSecrets, secretStoreFor, type InstallSecrets } from './security/secrets.js';

/** Versions for the About dialog and the log. */
export interface ServerAbout {
  app_version: string;
  api_version: string;
  database: DatabaseInfo;
  /** The ffmpeg that decodes audio uploads (system ≥ 5, or the bundled one); null when there is none. */
  decoder?: DecoderInfo | null;
}

export interface RunningServer {
  url: string;
  port: number;
  db: Knex;
  /** Every route the API answers. */
  routes: RouteInfo[];
  /** Set when this start created the admin with a generated password. */
  generatedAdminPassword?: string;
  /** The previous server on this data folder had not stopped cleanly (see lifecycle.ts). */
  recoveredFromUncleanStop: boolean;
  about: ServerAbout;
  /** The desktop app's update state, for GET /api/system/update-status. */
  updates: UpdateStatusBoard;
  /**
   * Stops listening and background work, checkpoints the SQLite write-ahead log and closes the database. With
   * graceMs (SIGTERM), readiness turns 503 and requests and streams already running get up to that long to finish.
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

export interface StartOptions {
  /** Where start, recovery and stop are reported (nothing by default). */
  log?: Logger;
}

/**
 * Makes DATA_DIR owner-only, opens the database (migrating it), makes sure an admin exists, and listens on config.host:config.port (0 = any free port).
 */
export async function startServer(config: AppConfig, { log = silentLogger }: StartOptions = {}): Promise<RunningServer> {
  preparePrivateDataDir(config.dataDir, (message) => log.info(message));
  const previous = markRunning(config.dataDir);
  // Found beside opening the database: `ffmpeg -version` runs in a child, not on the start's path.
  const decoder = decoderInfo();
  let db: Knex | undefined;
  let stopCacheBus: (() => Promise<void>) | undefined;
  let started: Awaited<ReturnType<typeof listen>>;
  try {
    let prepared: Prepared | undefined;
    db = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, schema: config.databaseSchema }, async (db) => {
      prepared = {
        admin: await ensureAdmin(db, config.adminUsername, config.adminPassword),
        secrets: await loadInstallSecrets(secretStoreFor(db, config.dataDir), config),
        nodeId: nodeId(config.dataDir),
      };
      await failInterruptedRuns(db, prepared.nodeId);
    });
    if (previous) log.error(describeUncleanStop(previous, !isPostgres(db)));
    stopCacheBus = await startCacheBus(db, config.databaseSchema);
    if (config.knowledgeSeedDir) await seedShippedKnowledge(config.knowledgeSeedDir, config, log);
    started = await listen(db, config, prepared!);
  } catch (err) {
    // A failed start leaves the clean-stop mark as it found it.
    await stopCacheBus?.();
    await db?.destroy();
    if (!previous) markStopped(config.dataDir);
    throw err;
  }
  const { server, closeApp, drain, inFlight, port, ...rest } = started;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const about: ServerAbout = { app_version: appVersion(), api_version: API_VERSION, database: await databaseInfo(db), decoder: await decoder };
  log.info(
    `server ${about.app_version} (API ${about.api_version}) ready on http://${host}:${port} in ${performance.now().toFixed(0)} ms from process start; ` +
      `${about.database.engine} ${about.database.version}, schema ${about.database.schema}, data in ${config.dataDir}`,
  );
  let closing: Promise<void> | undefined;
  return {
    ...rest,
    port,
    url: `http://${host}:${port}`,
    recoveredFromUncleanStop: !!previous,
    about,
    close({ graceMs = 0 } = {}) {
      closing ??= (async () => {
        drain();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        if (graceMs > 0) {
          server.closeIdleConnections();
          const until = Date.now() + graceMs;
          while (inFlight() > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
          if (inFlight() > 0) log.info(`stopping with ${inFlight()} request(s) still running after ${graceMs} ms`);
        }
        server.closeAllConnections();
        await closed;
        await closeApp();
        await stopCacheBus!();
        const { checkpointed } = await closeDatabase(db);
        markStopped(config.dataDir);
        log.info(`server stopped cleanly${isPostgres(db) ? '' : checkpointed ? '; write-ahead log checkpointed' : '; the write-ahead log is folded in at the next start (a reader held it)'}`);
      })();
      return closing;
    },
  };
}

/** The installed app's sample sources into the knowledge folder; a failure is logged, never a reason not to start. */
async function seedShippedKnowledge(shippedDir: string, config: AppConfig, log: Logger): Promise<void> {
  const storage = createStorage(config.storage, config.dataDir);
  const target = createKnowledgeStorage(storage, config.knowledgeDir);
  try {
    const { copied, updated } = await seedKnowledgeSources(shippedDir, target);
    if (copied.length || updated.length) log.info(`knowledge sources shipped with the app: ${copied.length} copied, ${updated.length} updated in ${target.describe}`);
  } catch (err) {
    log.error(`copying the shipped knowledge sources from ${shippedDir} failed`, err);
  } finally {
    await storage.close();
  }
}

/** What the start prepared under the start-up lock. */
interface Prepared {
  admin: Awaited<ReturnType<typeof ensureAdmin>>;
  secrets: InstallSecrets;
  nodeId: string;
}

/** Builds the app and listens. */
async function listen(db: Knex, config: AppConfig, { admin, secrets, nodeId }: Prepared) {
  const trainbench = createApp({ db, config, secrets, nodeId });
  const handle = trainbench.app.callback();
  let running = 0;
  let draining = false;
  // Counted so that a SIGTERM can wait for them; once draining, every answer closes its connection.
  const server = http.createServer((req, res) => {
    running++;
    res.once('close', () => {
      running--;
      if (draining) server.closeIdleConnections();
    });
    if (draining) res.setHeader('connection', 'close');
    void handle(req, res);
  });
  // Uploads of up to 200 MB over a slow link must not be cut off by Node's default request timeout.
  server.requestTimeout = 0;
  server.headersTimeout = 60_000;
  try {
    await trainbench.startJobs();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => resolve());
    });
  } catch (err) {
    await trainbench.close();
    throw err;
  }
  return {
    server,
    port: (server.address() as AddressInfo).port,
    db,
    routes: trainbench.routes,
    generatedAdminPassword: admin.generatedPassword,
    updates: trainbench.updates,
    closeApp: trainbench.close,
    drain: () => {
      draining = true;
      trainbench.drain();
    },
    inFlight: () => running,
  };
}
