import Router from '@koa/router';
import type { Deps } from '../context.js';
import { currentUser } from '../auth/guards.js';
import { parseBody, parseId, parseQuery } from '../http/validate.js';
import { SpecialistCreate, SpecialistListQuery, SpecialistUpdate } from './specialists.schema.js';
import { createSpecialist, deleteSpecialist, getSpecialist, listSpecialists, updateSpecialist } from './specialists.service.js';
import { documented } from '../http/openapi.js';

/** /api/specialists: reads for any user, writes for admins. */
export function specialistRoutes({ db, requireUser, requireAdmin }: Deps): Router {
  const router = new Router({ prefix: '/specialists' });

  router.get('/', requireUser, documented({ query: SpecialistListQuery }), async (ctx) => {
    ctx.body = await listSpecialists(db, parseQuery(ctx, SpecialistListQuery), currentUser(ctx));
  });
  router.get('/:id', requireUser, async (ctx) => {
    ctx.body = await getSpecialist(db, parseId(ctx.params.id, 'Specialist'));
  });
  router.post('/', ...requireAdmin, documented({ body: SpecialistCreate }), async (ctx) => {
    const specialist = await createSpecialist(db, parseBody(ctx, SpecialistCreate));
    ctx.status = 201;
    ctx.body = specialist;
  });
  router.put('/:id', ...requireAdmin, documented({ body: SpecialistUpdate }), async (ctx) => {
    const id = parseId(ctx.params.id, 'Specialist');
    ctx.body = await updateSpecialist(db, id, parseBody(ctx, SpecialistUpdate));
  });
  router.delete('/:id', ...requireAdmin, async (ctx) => {
    ctx.body = await deleteSpecialist(db, parseId(ctx.params.id, 'Specialist'));
  });
  return router;
}
