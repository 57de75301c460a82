import Router from '@koa/router';
import type { Deps } from '../context.js';
import { currentUser } from '../auth/guards.js';
import { parseBody, parseId, parseQuery } from '../http/validate.js';
import { DefinitionListQuery, SkillCreate, SkillUpdate, XAppCreate, XAppUpdate } from './definitions.schema.js';
import { createDefinition, getDefinition, listDefinitions, updateDefinition, type DefinitionKind } from './definitions.service.js';
import { documented } from '../http/openapi.js';

const SURFACES = {
  skill: { prefix: '/skills', label: 'Skill', create: SkillCreate, update: SkillUpdate },
  xapp: { prefix: '/xapps', label: 'App definition', create: XAppCreate, update: XAppUpdate },
} as const;

/** /api/skills and /api/xapps: reads for any user (employees see active, exposed ones), writes for admins. */
export function definitionRoutes({ db, requireUser, requireAdmin }: Deps, kind: DefinitionKind): Router {
  const surface = SURFACES[kind];
  const router = new Router({ prefix: surface.prefix });
  const isAdmin = (ctx: Parameters<typeof currentUser>[0]) => currentUser(ctx).role === 'admin';

  router.get('/', requireUser, documented({ query: DefinitionListQuery }), async (ctx) => {
    ctx.body = await listDefinitions(db, kind, parseQuery(ctx, DefinitionListQuery), isAdmin(ctx));
  });
  router.get('/:id', requireUser, async (ctx) => {
    ctx.body = await getDefinition(db, kind, parseId(ctx.params.id, surface.label), isAdmin(ctx));
  });
  router.post('/', ...requireAdmin, documented({ body: surface.create }), async (ctx) => {
    const definition = await createDefinition(db, kind, parseBody(ctx, surface.create));
    ctx.status = 201;
    ctx.body = definition;
  });
  router.put('/:id', ...requireAdmin, documented({ body: surface.update }), async (ctx) => {
    const id = parseId(ctx.params.id, surface.label);
    ctx.body = await updateDefinition(db, kind, id, parseBody(ctx, surface.update));
  });
  return router;
}
