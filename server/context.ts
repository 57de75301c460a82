import type { Knex } from 'knex';
import type { Middleware } from 'koa';
import type { AppConfig } from './config.js';
import type { UpdateStatusBoard } from './system/update-status.js';
import type { InstallSecrets } from './security/secrets.js';
import type { JobQueue } from './jobs/queue.js';
import type { Storage } from './storage/storage.js';

/** What every domain's routes receive: the database, the configuration and the shared guards. */
export interface Deps {
  db: Knex;
  config: AppConfig;
  /** The install's keys (one set for every node of a cluster; security/secrets.ts). */
  secrets: InstallSecrets;
  /** Background work (server/jobs/): domains register their kinds while their routes are built. */
  jobs: JobQueue;
  /** This node's lasting name (node-id.ts). */
  nodeId: string;
  /** Where every user file lives (server/storage/): DATA_DIR or an S3 bucket. */
  storage: Storage;
  /** The knowledge sources' files: KNOWLEDGE_DIR, or the bucket's `knowledge/` prefix (storage/index.ts). */
  knowledgeStorage: Storage;
  /** Requires a valid token of an active user; sets ctx.state.user. */
  requireUser: Middleware;
  /** requireUser, then role admin (403 otherwise). */
  requireAdmin: Middleware[];
  /** Registers work to stop when the server closes (timers, background jobs). */
  onClose(stop: () => unknown): void;
  /** The desktop app's update state, as its main process reports it. */
  updates: UpdateStatusBoard;
}
