// Picks the job queue for the database: in this process on the laptop's SQLite, pg-boss on PostgreSQL.
import type { Knex } from 'knex';
import type { AppConfig } from '../config.js';
import { isPostgres } from '../db/knex.js';
import { InProcessJobQueue } from './in-process.js';
import { PgBossJobQueue } from './pg-boss.js';
import type { JobQueue } from './queue.js';

export function jobQueueFor(db: Knex, config: Pick<AppConfig, 'databaseUrl' | 'databaseSchema' | 'jobMaintenanceSeconds'>, log: (err: unknown) => void): JobQueue {
  if (!isPostgres(db) || !config.databaseUrl) return new InProcessJobQueue(log);
  return new PgBossJobQueue({ url: config.databaseUrl, schema: config.databaseSchema, maintenanceSeconds: config.jobMaintenanceSeconds, log });
}

export type { JobContext, JobKind, JobQueue } from './queue.js';
export { jobQueueOf, registerJobQueue } from './queue.js';
