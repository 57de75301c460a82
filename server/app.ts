import Koa from 'koa';
import Router from '@koa/router';
import type { Knex } from 'knex';
import { proxyHops, type AppConfig } from './config.js';
import type { InstallSecrets } from './security/secrets.js';
import { jobQueueFor, registerJobQueue } from './jobs/index.js';
import type { Deps } from './context.js';
import { envelope } from './http/envelope.js';
import { jsonBody } from './http/json-body.js';
import { dispatchByFirstSegment } from './http/dispatch.js';
import { requireRole, requireUser } from './auth/guards.js';
import { healthRoutes, type ReadinessCheck } from './health/health.routes.js';
import { authRoutes } from './auth/auth.routes.js';
import { systemRoutes } from './system/system.routes.js';
import { notificationRoutes } from './notifications/notifications.routes.js';
import { productRoutes } from './products/products.routes.js';
import { courseRoutes } from './courses/courses.routes.js';
import { companyRoutes } from './company/company.routes.js';
import { examRoutes } from './exams/exams.routes.js';
import { mediaRoutes } from './media/media.routes.js';
import { knowledgeRoutes } from './knowledge/knowledge.routes.js';
import { chatRoutes } from './chat/chat.routes.js';
import { workbenchRoutes } from './workbench/workbench.routes.js';
import { audioRoutes } from './audio/audio.routes.js';
import { aiRoutes } from './ai/ai.routes.js';
import { learningRoutes } from './learning/learning.routes.js';
import { knowledgePackRoutes } from './knowledge-packs/packs.routes.js';
import { coachingRoutes } from './coaching/coaching.routes.js';
import { complianceRoutes } from './compliance/compliance.routes.js';
import { roleplayRoutes } from './roleplay/roleplay.routes.js';
import { syncRoutes } from './sync/sync.routes.js';
import { securityRoutes } from './security/security.routes.js';
import { reviewRoutes } from './review/review.routes.js';
import { assignmentRoutes } from './assignments/assignments.routes.js';
import { importRoutes } from './imports/imports.routes.js';
import { serveRenderer } from './static/static.js';
import { UpdateStatusBoard } from './system/update-status.js';
import { createKnowledgeStorage, createStorage } from './storage/index.js';
import { AppMetrics } from './metrics/metrics.js';
import { meteredJobQueue } from './jobs/metered.js';
import { requestId } from './http/request-id.js';
import { serverLog } from './log/structured.js';
import { metricsEndpoint, requestTiming } from './http/metrics.js';
import { markAuth, routeLayers } from './http/openapi.js';
import { apiDocsRoutes } from './http/api-docs.routes.js';
import { setDerivationDelay } from './review/pending-events.js';

export interface AppOptions {
  db: Knex;
  config: AppConfig;
  secrets: InstallSecrets;
  nodeId: string;
}

/** One route of the API: its path pattern (e.g. `/api/products/:id`) and methods. */
export interface RouteInfo {
  path: string;
  methods: string[];
}

export interface TrainbenchApp {
  app: Koa;
  /** Every route the API answers, for tools and tests that walk the whole surface. */
  routes: RouteInfo[];
  /** Where the desktop app's update stands (reported by its main process; headless until then). */
  updates: UpdateStatusBoard;
  /** Readiness turns 503 from now on (SIGTERM: the load balancer stops sending this node requests). */
  drain(): void;
  /** Checks of GET /api/health/ready besides the database (the storage layer adds its bucket's). */
  readinessChecks: Map<string, ReadinessCheck>;
  /** Starts the background work the domains registered (called once, before listening). */
  startJobs(): Promise<void>;
  /** Stops what the domains started (timers, background jobs); the database is the caller's. */
  close(): Promise<void>;
}

const domains = [authRoutes, importRoutes, systemRoutes, notificationRoutes, productRoutes, courseRoutes, companyRoutes, examRoutes, learningRoutes, mediaRoutes, knowledgeRoutes, chatRoutes, workbenchRoutes, aiRoutes, audioRoutes, knowledgePackRoutes, coachingRoutes, complianceRoutes, syncRoutes, securityRoutes, reviewRoutes, assignmentRoutes, roleplayRoutes];

export function createApp({ db, config, secrets, nodeId }: AppOptions): TrainbenchApp {
  setDerivationDelay(db, config.reviewDeriveAfterMs);
  // X-Forwarded-* only behind a proxy that sets them (TRUST_PROXY): otherwise a client could choose its own address.
  // Only the entries our proxies appended count (maxIpsCount), so a client's own X-Forwarded-For is never its address.
  const hops = proxyHops(config.trustProxy);
  const app = new Koa({ proxy: hops > 0, maxIpsCount: hops });
  const stops: (() => unknown)[] = [];
  const user = markAuth(requireUser(db, secrets.jwtSecret), 'user');
  const adminRole = markAuth(requireRole('admin'), 'admin');
  const updates = new UpdateStatusBoard();
  const log = (err: unknown) => {
    if (process.env.NODE_ENV !== 'test') console.error('[jobs]', err);
  };
  const queue = jobQueueFor(db, config, log);
  const metrics = new AppMetrics(db, () => queue);
  const jobs = meteredJobQueue(queue, metrics);
  registerJobQueue(db, jobs);
  const storage = createStorage(config.storage, config.dataDir);
  const knowledgeStorage = createKnowledgeStorage(storage, config.knowledgeDir);
  const deps: Deps = { db, config, secrets, nodeId, jobs, storage, knowledgeStorage, requireUser: user, requireAdmin: [user, adminRole], onClose: (stop) => stops.push(stop), updates };

  let draining = false;
  const readinessChecks = new Map<string, ReadinessCheck>();
  readinessChecks.set('storage', () => storage.check());
  const apiDocs = () => apiDocsRoutes(() => routeLayers(mounted));
  const mounted: Router[] = [() => healthRoutes({ db, isDraining: () => draining, checks: readinessChecks }), ...domains.map((domain) => () => domain(deps)), apiDocs].map((make) => {
    const router = new Router({ prefix: '/api' });
    router.use(make().routes());
    return router;
  });

  app.use(requestId);
  // Timed only where someone can read the figures: a laptop without METRICS_TOKEN pays nothing.
  if (config.metricsToken) app.use(requestTiming(metrics));
  app.use(envelope);
  app.use(metricsEndpoint(metrics, config.metricsToken));
  app.use(jsonBody({ limit: '2mb' }));
  app.use(dispatchByFirstSegment(mounted, '/api'));
  app.use(serveRenderer());
  app.on('error', (err: unknown, ctx?: Koa.Context) => {
    if (process.env.NODE_ENV !== 'test') serverLog().error({ err, reqId: ctx?.state.requestId }, '[trainbench] request failed');
  });

  const routes = mounted.flatMap((router) =>
    router.stack.filter((layer) => layer.methods.length).map((layer) => ({ path: String(layer.path), methods: layer.methods.filter((m) => m !== 'HEAD') })),
  );

  return {
    app,
    routes,
    updates,
    readinessChecks,
    drain: () => {
      draining = true;
    },
    startJobs: () => jobs.start(),
    close: async () => {
      for (const stop of stops.splice(0)) await stop();
      await jobs.stop();
      await storage.close();
      metrics.close();
    },
  };
}
