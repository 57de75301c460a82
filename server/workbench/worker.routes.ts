import Router from '@koa/router';
import type { Context } from 'koa';
import type { Deps } from '../context.js';
import { currentUser } from '../auth/guards.js';
import { parseBody, parseId, parseQuery, SearchPaging } from '../http/validate.js';
import { ProjectCreate, ProjectUpdate, TaskListQuery, TaskUpdate, WorkerChatBody } from './worker.schema.js';
import { planExchange } from './exchange-plan.js';
import { workerChat } from './worker-chat.js';
import { findArtifact, findOwnTask, findRun, listArtifacts, listRuns, listTasksOfOwners } from './tasks.repository.js';
import { deleteTask, updateTask } from './tasks.service.js';
import { createProject, deleteProject, findOwnProject, getProjectDetail, listProjectsOfOwners, updateProject } from './projects.service.js';
import { documented } from '../http/openapi.js';

/** /api/worker: the caller's chat, tasks (with runs and artifacts) and projects. Everything is owner-scoped. */
export function workerRoutes({ db, nodeId, requireUser }: Deps): Router {
  const router = new Router({ prefix: '/worker' });
  router.use(requireUser);
  const me = (ctx: Context) => currentUser(ctx).id;
  /** The caller's task named in the path: 404 for another user's. */
  const ownTask = (ctx: Context) => findOwnTask(db, me(ctx), parseId(ctx.params.id, 'Task'));

  router.post('/chat', documented({ body: WorkerChatBody }), async (ctx) => {
    const plan = await planExchange(db, me(ctx), parseBody(ctx, WorkerChatBody));
    await workerChat(ctx, db, plan, nodeId);
  });

  router.get('/my-tasks', documented({ query: TaskListQuery }), async (ctx) => {
    const filter = parseQuery(ctx, TaskListQuery);
    if (filter.project_id !== undefined) await findOwnProject(db, me(ctx), filter.project_id);
    ctx.body = await listTasksOfOwners(db, [me(ctx)], filter);
  });
  router.get('/my-tasks/:id', async (ctx) => {
    ctx.body = await ownTask(ctx);
  });
  router.put('/my-tasks/:id', documented({ body: TaskUpdate }), async (ctx) => {
    const id = parseId(ctx.params.id, 'Task');
    ctx.body = await updateTask(db, me(ctx), id, parseBody(ctx, TaskUpdate));
  });
  router.delete('/my-tasks/:id', async (ctx) => {
    ctx.body = await deleteTask(db, me(ctx), parseId(ctx.params.id, 'Task'));
  });
  router.get('/my-tasks/:id/runs', async (ctx) => {
    ctx.body = await listRuns(db, (await ownTask(ctx)).id);
  });
  router.get('/my-tasks/:id/runs/:runId', async (ctx) => {
    const task = await ownTask(ctx);
    ctx.body = await findRun(db, task.id, parseId(ctx.params.runId, 'Run'));
  });
  router.get('/my-tasks/:id/artifacts', async (ctx) => {
    ctx.body = await listArtifacts(db, (await ownTask(ctx)).id);
  });
  router.get('/my-tasks/:id/artifacts/:artifactId', async (ctx) => {
    const task = await ownTask(ctx);
    ctx.body = await findArtifact(db, task.id, parseId(ctx.params.artifactId, 'Artifact'));
  });

  router.get('/projects', documented({ query: SearchPaging }), async (ctx) => {
    ctx.body = await listProjectsOfOwners(db, [me(ctx)], parseQuery(ctx, SearchPaging));
  });
  router.post('/projects', documented({ body: ProjectCreate }), async (ctx) => {
    const project = await createProject(db, me(ctx), parseBody(ctx, ProjectCreate));
    ctx.status = 201;
    ctx.body = project;
  });
  router.get('/projects/:id', async (ctx) => {
    ctx.body = await getProjectDetail(db, me(ctx), parseId(ctx.params.id, 'Project'));
  });
  router.put('/projects/:id', documented({ body: ProjectUpdate }), async (ctx) => {
    const id = parseId(ctx.params.id, 'Project');
    ctx.body = await updateProject(db, me(ctx), id, parseBody(ctx, ProjectUpdate));
  });
  router.delete('/projects/:id', async (ctx) => {
    ctx.body = await deleteProject(db, me(ctx), parseId(ctx.params.id, 'Project'));
  });
  return router;
}
