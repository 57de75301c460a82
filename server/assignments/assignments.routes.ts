// /api/assignments: admins assign, follow and remind; everyone reads their own (`mine`).
import Router from '@koa/router';
import type { Deps } from '../context.js';
import { currentUser } from '../auth/guards.js';
import { nowMs } from '../clock.js';
import { sendWorkbook } from '../http/xlsx-export.js';
import { parseBody, parseId, parseQuery } from '../http/validate.js';
import { CreateBody, ListQuery, ProgressExportQuery, ProgressQuery, UpdateBody } from './assignments.schema.js';
import {
  createAssignment,
  deleteAssignment,
  getAssignment,
  listAssignments,
  myAssignments,
  remindNow,
  updateAssignment,
  type Clock,
} from './assignments.service.js';
import { progressPage, progressPeople } from './progress.js';
import { exportProgress, progressFileName } from './progress.export.js';
import { scheduleReminderScan } from './reminders.js';
import { documented } from '../http/openapi.js';
import { readConfigValue } from '../system/config.service.js';

export function assignmentRoutes({ db, config, jobs, requireUser, requireAdmin }: Deps): Router {
  const router = new Router({ prefix: '/assignments' });
  // The real clock, or the tests' (server/clock.ts).
  const clock: Clock = nowMs;
  scheduleReminderScan(jobs, db, clock, config.reminderScanMs);

  router.get('/mine', requireUser, async (ctx) => {
    ctx.body = await myAssignments(db, currentUser(ctx), clock());
  });
  router.get('/', ...requireAdmin, documented({ query: ListQuery }), async (ctx) => {
    ctx.body = await listAssignments(db, parseQuery(ctx, ListQuery), clock());
  });
  router.post('/', ...requireAdmin, documented({ body: CreateBody }), async (ctx) => {
    const assignment = await createAssignment(db, parseBody(ctx, CreateBody), currentUser(ctx), clock());
    ctx.status = 201;
    ctx.body = assignment;
  });
  router.get('/:id', ...requireAdmin, async (ctx) => {
    ctx.body = await getAssignment(db, parseId(ctx.params.id, 'Assignment'), clock());
  });
  router.put('/:id', ...requireAdmin, documented({ body: UpdateBody }), async (ctx) => {
    const id = parseId(ctx.params.id, 'Assignment');
    ctx.body = await updateAssignment(db, id, parseBody(ctx, UpdateBody), clock());
  });
  router.delete('/:id', ...requireAdmin, async (ctx) => {
    const id = parseId(ctx.params.id, 'Assignment');
    await deleteAssignment(db, id);
    ctx.body = { id, deleted: true };
  });
  router.get('/:id/progress', ...requireAdmin, documented({ query: ProgressQuery }), async (ctx) => {
    ctx.body = await progressPage(db, parseId(ctx.params.id, 'Assignment'), clock(), parseQuery(ctx, ProgressQuery));
  });
  router.get('/:id/progress/export', ...requireAdmin, documented({ query: ProgressExportQuery }), async (ctx) => {
    const id = parseId(ctx.params.id, 'Assignment');
    const filter = { ...parseQuery(ctx, ProgressExportQuery), time_zone: await readConfigValue<string>(db, 'timezone') };
    const { row, people } = await progressPeople(db, id, clock(), filter);
    const stream = await exportProgress(row.title, people, filter);
    sendWorkbook(ctx, stream, progressFileName(row.id, filter));
  });
  router.post('/:id/remind', ...requireAdmin, async (ctx) => {
    ctx.body = await remindNow(db, parseId(ctx.params.id, 'Assignment'));
  });

  return router;
}
