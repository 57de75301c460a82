import Router from '@koa/router';
import type { Knex } from 'knex';
import type { Health } from '../../contract/envelope.js';
import { API_VERSION, SERVICE_NAME } from '../config.js';
import { sendRaw } from '../http/envelope.js';

/** One thing a node needs to serve requests (the database, the bucket); throws when it cannot be used. */
export type ReadinessCheck = () => Promise<void>;

export interface HealthDeps {
  db: Knex;
  /** Set once SIGTERM arrived: the node finishes what it has and takes nothing new. */
  isDraining(): boolean;
  /** Checks besides the database (the storage's bucket, once the storage layer registers it). */
  checks: Map<string, ReadinessCheck>;
}

const READY_TIMEOUT_MS = 3000;

async function probe(check: ReadinessCheck): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([check(), new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS)))]);
    return 'ok';
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * GET /api/health: the spec's liveness answer, constant and fast. GET /api/health/ready: whether a load balancer
 * should send this node requests: 200 when the database (and every registered check) answers, 503 otherwise or
 * while the node drains for a SIGTERM (docs/deploy.md).
 */
export function healthRoutes({ db, isDraining, checks }: HealthDeps): Router {
  const router = new Router();
  router.get('/health', (ctx) => {
    sendRaw(ctx);
    const body: Health = { status: 'ok', service: SERVICE_NAME, version: API_VERSION };
    ctx.body = body;
  });
  router.get('/health/ready', async (ctx) => {
    sendRaw(ctx);
    ctx.set('Cache-Control', 'no-store');
    const all = new Map<string, ReadinessCheck>([['database', async () => void (await db.raw('SELECT 1'))], ...checks]);
    const results = Object.fromEntries(await Promise.all([...all].map(async ([name, check]) => [name, await probe(check)] as const)));
    const draining = isDraining();
    const ready = !draining && Object.values(results).every((r) => r === 'ok');
    ctx.status = ready ? 200 : 503;
    ctx.body = { status: ready ? 'ready' : draining ? 'draining' : 'not_ready', checks: results };
  });
  return router;
}
