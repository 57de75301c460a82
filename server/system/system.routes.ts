import Router from '@koa/router';
import type { Deps } from '../context.js';
import { parseBody, parseId, parseQuery } from '../http/validate.js';
import { listUsers } from '../users/users.repository.js';
import { createUser, getUser, updateUser } from '../users/users.service.js';
import { createDepartment, deleteDepartment, getDepartment, listDepartments, updateDepartment } from '../users/departments.service.js';
import {
  addKnowledge,
  createPosition,
  deleteKnowledge,
  deletePosition,
  getKnowledge,
  getPosition,
  listPositions,
  updateKnowledge,
  updatePosition,
} from '../users/positions.service.js';
import { publicConfig, readConfig, writeConfig } from './config.service.js';
import * as schema from './system.schema.js';
import { documented } from '../http/openapi.js';

/** Administration under /api/system: users, departments, positions (with their knowledge items) and parameters. */
export function systemRoutes({ db, requireAdmin, updates }: Deps): Router {
  const router = new Router({ prefix: '/system' });
  router.use(...requireAdmin);

  router.get('/users', documented({ query: schema.UserListQuery }), async (ctx) => {
    ctx.body = await listUsers(db, parseQuery(ctx, schema.UserListQuery));
  });
  router.get('/users/:id', async (ctx) => {
    ctx.body = await getUser(db, parseId(ctx.params.id, 'User'));
  });
  router.post('/users', documented({ body: schema.UserCreate }), async (ctx) => {
    ctx.status = 201;
    ctx.body = await createUser(db, parseBody(ctx, schema.UserCreate));
  });
  router.put('/users/:id', documented({ body: schema.UserUpdate }), async (ctx) => {
    const id = parseId(ctx.params.id, 'User');
    ctx.body = await updateUser(db, id, parseBody(ctx, schema.UserUpdate));
  });

  router.get('/departments', documented({ query: schema.OrgListQuery }), async (ctx) => {
    ctx.body = await listDepartments(db, parseQuery(ctx, schema.OrgListQuery));
  });
  router.get('/departments/:id', async (ctx) => {
    ctx.body = await getDepartment(db, parseId(ctx.params.id, 'Department'));
  });
  router.post('/departments', documented({ body: schema.DepartmentCreate }), async (ctx) => {
    ctx.status = 201;
    ctx.body = await createDepartment(db, parseBody(ctx, schema.DepartmentCreate));
  });
  router.put('/departments/:id', documented({ body: schema.DepartmentUpdate }), async (ctx) => {
    ctx.body = await updateDepartment(db, parseId(ctx.params.id, 'Department'), parseBody(ctx, schema.DepartmentUpdate));
  });
  router.delete('/departments/:id', async (ctx) => {
    ctx.body = await deleteDepartment(db, parseId(ctx.params.id, 'Department'));
  });

  router.get('/positions', documented({ query: schema.OrgListQuery }), async (ctx) => {
    ctx.body = await listPositions(db, parseQuery(ctx, schema.OrgListQuery));
  });
  router.get('/positions/:id', async (ctx) => {
    ctx.body = await getPosition(db, parseId(ctx.params.id, 'Position'));
  });
  router.post('/positions', documented({ body: schema.PositionCreate }), async (ctx) => {
    ctx.status = 201;
    ctx.body = await createPosition(db, parseBody(ctx, schema.PositionCreate));
  });
  router.put('/positions/:id', documented({ body: schema.PositionUpdate }), async (ctx) => {
    ctx.body = await updatePosition(db, parseId(ctx.params.id, 'Position'), parseBody(ctx, schema.PositionUpdate));
  });
  router.delete('/positions/:id', async (ctx) => {
    ctx.body = await deletePosition(db, parseId(ctx.params.id, 'Position'));
  });
  router.post('/positions/:id/knowledge', documented({ body: schema.KnowledgeCreate }), async (ctx) => {
    ctx.status = 201;
    ctx.body = await addKnowledge(db, parseId(ctx.params.id, 'Position'), parseBody(ctx, schema.KnowledgeCreate));
  });
  router.get('/positions/:id/knowledge/:itemId', async (ctx) => {
    ctx.body = await getKnowledge(db, parseId(ctx.params.id, 'Position'), parseId(ctx.params.itemId, 'Knowledge item'));
  });
  router.put('/positions/:id/knowledge/:itemId', documented({ body: schema.KnowledgeUpdate }), async (ctx) => {
    const body = parseBody(ctx, schema.KnowledgeUpdate);
    ctx.body = await updateKnowledge(db, parseId(ctx.params.id, 'Position'), parseId(ctx.params.itemId, 'Knowledge item'), body);
  });
  router.delete('/positions/:id/knowledge/:itemId', async (ctx) => {
    ctx.body = await deleteKnowledge(db, parseId(ctx.params.id, 'Position'), parseId(ctx.params.itemId, 'Knowledge item'));
  });

  router.get('/config', async (ctx) => {
    ctx.body = publicConfig(await readConfig(db));
  });
  router.put('/config', documented({ body: schema.ConfigUpdate }), async (ctx) => {
    const { configs } = parseBody(ctx, schema.ConfigUpdate);
    ctx.body = publicConfig(await writeConfig(db, configs));
  });

  router.get('/update-status', (ctx) => {
    ctx.body = updates.read();
  });

  return router;
}
