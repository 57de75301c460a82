// Admin bulk imports (docs/api/imports.md): users under /system/users/import, questions under /exam/questions/import.
// Each has a template to download and takes one .xlsx (multipart field `file`); `dry_run` checks without writing.
// Mounted before the system and exam routers, so that /users/import is not read as /users/:id.
import Router from '@koa/router';
import { z } from 'zod';
import type { Context } from 'koa';
import type { Deps } from '../context.js';
import { parseId, parseWith, QueryBool } from '../http/validate.js';
import { formField, multipart, requireFile } from '../http/multipart.js';
import { validationFailed } from '../http/errors.js';
import { sendRaw } from '../http/envelope.js';
import { importUserRows, readUserRows, userTemplate } from './users.import.js';
import { usersImportJobs } from './users.import-job.js';
import { importQuestions, questionTemplate } from './questions.import.js';
import { XLSX_TYPE } from './xlsx-rows.js';
import { withClippedErrors } from './report-values.js';
import { USER_IMPORT_JOB_ROWS, type BulkImportRowError } from '../../contract/imports.js';
import { currentUser } from '../auth/guards.js';

const IMPORT_MAX_BYTES = 20 * 1024 * 1024;
const DryRun = z.object({ dry_run: QueryBool });

/** In the query or as a form field; anything but true/false/1/0 is a 400 rather than a real import. */
const dryRunOf = (ctx: Context): boolean => [ctx.query.dry_run, formField(ctx, 'dry_run')].some((v) => v !== undefined && parseWith(DryRun, { dry_run: v }).dry_run);

/** A real import with invalid rows writes nothing and is a 400 whose details are the report (as products do). */
function refuseInvalid(report: { dry_run: boolean; errors: BulkImportRowError[] }): void {
  if (!report.errors.length || report.dry_run) return;
  const first = report.errors.slice(0, 3).map((e) => `row ${e.row}${e.field ? ` (${e.field})` : ''}: ${e.error}`);
  throw validationFailed(`${report.errors.length} invalid row(s), nothing imported. ${first.join('; ')}`, report);
}

function sendTemplate(ctx: Context, name: string, body: Buffer): void {
  sendRaw(ctx);
  ctx.type = XLSX_TYPE;
  ctx.set('Content-Disposition', `attachment; filename="${name}.xlsx"; filename*=UTF-8''${encodeURIComponent(name)}.xlsx`);
  ctx.body = body;
}

export function importRoutes({ db, jobs, secrets, requireAdmin }: Deps): Router {
  const router = new Router();
  const userJobs = usersImportJobs(db, jobs, secrets.jwtSecret, (err) => {
    if (process.env.NODE_ENV !== 'test') console.error('[imports]', err);
  });

  router.get('/system/users/import/template', ...requireAdmin, async (ctx) => {
    sendTemplate(ctx, 'users-template', await userTemplate());
  });
  router.post('/system/users/import', ...requireAdmin, multipart({ maxFileSize: IMPORT_MAX_BYTES }), async (ctx) => {
    const dryRun = dryRunOf(ctx);
    const rows = await readUserRows(requireFile(ctx));
    ctx.set('Cache-Control', 'no-store');
    if (!dryRun && rows.length > USER_IMPORT_JOB_ROWS) {
      ctx.status = 202;
      ctx.body = { job_id: await userJobs.start(rows, currentUser(ctx).id) };
      return;
    }
    const report = withClippedErrors(await importUserRows(db, rows, dryRun));
    refuseInvalid(report);
    ctx.body = report;
  });
  router.get('/system/users/import/jobs/:id', ...requireAdmin, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await userJobs.view(parseId(ctx.params.id, 'import job'), currentUser(ctx).id);
  });

  router.get('/exam/questions/import/template', ...requireAdmin, async (ctx) => {
    sendTemplate(ctx, 'questions-template', await questionTemplate());
  });
  router.post('/exam/questions/import', ...requireAdmin, multipart({ maxFileSize: IMPORT_MAX_BYTES }), async (ctx) => {
    const report = withClippedErrors(await importQuestions(db, requireFile(ctx), dryRunOf(ctx)));
    refuseInvalid(report);
    ctx.body = report;
  });

  return router;
}
