// Exam records and certificates: the caller's own (an admin sees all), and the admin views under /system.
import Router from '@koa/router';
import type { Deps } from '../context.js';
import { currentUser } from '../auth/guards.js';
import { bufferSource, sendFile } from '../http/file-response.js';
import { sendWorkbook } from '../http/xlsx-export.js';
import { parseId, parseQuery } from '../http/validate.js';
import { AdminRecordQuery, ExportQuery, NotTakenQuery, StatsQuery } from './exams.schema.js';
import { exportFileName, exportRecords } from './records.export.js';
import { examStats, notTaken } from './stats.service.js';
import { listRecords } from './records.repository.js';
import { listVisibleRecords, recordDetail, recordKey, visibleCertificate } from './records.service.js';
import { listCertificates } from './certificates.repository.js';
import { renderCertificatePdf } from './certificate-pdf.js';
import { readConfigValue } from '../system/config.service.js';
import { documented } from '../http/openapi.js';

export function recordRoutes({ db, requireUser }: Deps): Router {
  const router = new Router({ prefix: '/exam' });

  router.get('/record', requireUser, documented({ query: AdminRecordQuery }), async (ctx) => {
    ctx.body = await listVisibleRecords(db, currentUser(ctx), parseQuery(ctx, AdminRecordQuery));
  });
  router.get('/record/:recordId', requireUser, async (ctx) => {
    ctx.body = await recordDetail(db, currentUser(ctx), recordKey(ctx.params.recordId));
  });
  router.get('/certificates', requireUser, async (ctx) => {
    ctx.body = await listCertificates(db, currentUser(ctx).id);
  });
  router.get('/certificates/:id', requireUser, async (ctx) => {
    ctx.body = await visibleCertificate(db, currentUser(ctx), parseId(ctx.params.id, 'Certificate'));
  });
  router.get('/certificates/:id/pdf', requireUser, async (ctx) => {
    const cert = await visibleCertificate(db, currentUser(ctx), parseId(ctx.params.id, 'Certificate'));
    const pdf = await renderCertificatePdf(cert, await readConfigValue<string>(db, 'timezone'));
    await sendFile(ctx, bufferSource(pdf), { filename: `certificate-${cert.certificate_no}.pdf`, mimeType: 'application/pdf', disposition: 'attachment', cacheControl: 'no-store', ranges: false });
  });

  return router;
}

export function adminRecordRoutes({ db, requireAdmin }: Deps): Router {
  const router = new Router({ prefix: '/system/exam-records' });

  router.get('/', ...requireAdmin, documented({ query: AdminRecordQuery }), async (ctx) => {
    ctx.body = await listRecords(db, parseQuery(ctx, AdminRecordQuery));
  });
  router.get('/export', ...requireAdmin, documented({ query: ExportQuery }), async (ctx) => {
    const filter = { ...parseQuery(ctx, ExportQuery), time_zone: await readConfigValue<string>(db, 'timezone') };
    const stream = await exportRecords(db, filter);
    sendWorkbook(ctx, stream, exportFileName(filter));
  });
  router.get('/:id', ...requireAdmin, async (ctx) => {
    ctx.body = await recordDetail(db, currentUser(ctx), recordKey(ctx.params.id));
  });

  return router;
}

export function examStatsRoutes({ db, requireAdmin }: Deps): Router {
  const router = new Router({ prefix: '/system/exam-stats' });
  router.get('/', ...requireAdmin, documented({ query: StatsQuery }), async (ctx) => {
    ctx.body = await examStats(db, parseQuery(ctx, StatsQuery));
  });
  router.get('/not-taken', ...requireAdmin, documented({ query: NotTakenQuery }), async (ctx) => {
    ctx.body = await notTaken(db, parseQuery(ctx, NotTakenQuery));
  });
  return router;
}
