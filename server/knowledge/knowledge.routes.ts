import Router from '@koa/router';
import type { Deps } from '../context.js';
import { currentUser } from '../auth/guards.js';
import { parseBody, parseId, parseQuery } from '../http/validate.js';
import { clientGone } from '../http/client-gone.js';
import { listSources } from './sources.repository.js';
import { getSource, rejectSource, scanKnowledgeDir } from './knowledge.service.js';
import { searchChunks } from './search.js';
import { approveJobs } from './approve.job.js';
import { AuditBody, AuditListQuery, SearchQuery } from './knowledge.schema.js';
import { documented } from '../http/openapi.js';

export function knowledgeRoutes({ db, config, jobs, knowledgeStorage, requireUser, requireAdmin }: Deps): Router {
  const router = new Router({ prefix: '/knowledge' });
  const approve = approveJobs(db, knowledgeStorage, jobs, config.jobLeaseSeconds);

  router.post('/scan', ...requireAdmin, async (ctx) => {
    ctx.body = await scanKnowledgeDir(db, knowledgeStorage);
  });

  router.get('/audit-list', ...requireAdmin, documented({ query: AuditListQuery }), async (ctx) => {
    ctx.body = await listSources(db, parseQuery(ctx, AuditListQuery));
  });

  router.post('/audit/:id', ...requireAdmin, documented({ body: AuditBody }), async (ctx) => {
    const id = parseId(ctx.params.id, 'Knowledge source');
    const body = parseBody(ctx, AuditBody);
    const reviewer = currentUser(ctx).id;
    // Approving ingests the source: a job, run on whichever node claims it (rejecting is one update, done here).
    ctx.body = body.action === 'approve' ? await approve(id, reviewer, clientGone(ctx)) : await rejectSource(db, id, body.reject_reason, reviewer);
  });

  // status is the spec's path; sources/{id} reads the same record back under its resource name.
  router.get(['/status/:id', '/sources/:id'], requireUser, async (ctx) => {
    ctx.body = await getSource(db, parseId(ctx.params.id, 'Knowledge source'));
  });

  router.get('/search', requireUser, documented({ query: SearchQuery }), async (ctx) => {
    const { q, limit } = parseQuery(ctx, SearchQuery);
    ctx.body = await searchChunks(db, q, limit);
  });

  return router;
}
