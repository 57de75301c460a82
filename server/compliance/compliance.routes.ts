import Router from '@koa/router';
import type { Context, Next } from 'koa';
import type { Deps } from '../context.js';
import { currentUser } from '../auth/guards.js';
import { AppError } from '../http/errors.js';
import { parseBody, parseId, parseQuery } from '../http/validate.js';
import { sendWorkbook } from '../http/xlsx-export.js';
import { findCachedUserRow } from '../users/users.repository.js';
import { sendRecording } from '../audio/recordings.js';
import { onTranscribed } from '../audio/transcription-events.js';
import { CoachingErrorCode } from '../../contract/coaching.js';
import { AudioErrorCode } from '../../contract/audio.js';
import { InspectBody, InspectionExportQuery, InspectionListQuery, RuleSetCreate, RuleSetListQuery, RuleSetUpdate, StatsQuery } from './compliance.schema.js';
import { createRuleSet, deactivateRuleSet, editRuleSet, getRuleSet, ruleSets } from './rule-sets.service.js';
import { inspect, inspectTranscribed, listInspectionsFor, mayListen, readInspection, visibleInspection, type Reader } from './inspections.service.js';
import { complianceStats, toRuleSetSummary } from './compliance.repository.js';
import { exportFileName, exportInspections } from './inspections.export.js';
import { InspectionLinks } from './inspection-links.js';
import { readConfigValue } from '../system/config.service.js';
import { documented } from '../http/openapi.js';

/**
 * Compliance inspection under /api/compliance: rule sets and stats for admins; inspections for their rep (every
 * one for admins), made on request and after every speaker-labelled transcription.
 */
export function complianceRoutes({ db, storage, secrets, requireUser, requireAdmin, onClose }: Deps): Router {
  const router = new Router({ prefix: '/compliance' });
  const links = new InspectionLinks(secrets.urlSigningSecret);
  const reader = (ctx: Context): Reader => currentUser(ctx);
  onClose(onTranscribed(db, (userId, transcription) => inspectTranscribed(db, userId, transcription)));

  router.get('/rule-sets', ...requireAdmin, documented({ query: RuleSetListQuery }), async (ctx) => {
    ctx.body = (await ruleSets(db, parseQuery(ctx, RuleSetListQuery).status)).map(toRuleSetSummary);
  });
  router.get('/rule-sets/:id', ...requireAdmin, async (ctx) => {
    ctx.body = await getRuleSet(db, parseId(ctx.params.id, 'Rule set'));
  });
  router.post('/rule-sets', ...requireAdmin, documented({ body: RuleSetCreate }), async (ctx) => {
    const created = await createRuleSet(db, parseBody(ctx, RuleSetCreate));
    ctx.status = 201;
    ctx.set('Location', `/api/compliance/rule-sets/${created.id}`);
    ctx.body = created;
  });
  router.put('/rule-sets/:id', ...requireAdmin, documented({ body: RuleSetUpdate }), async (ctx) => {
    const id = parseId(ctx.params.id, 'Rule set');
    ctx.body = await editRuleSet(db, id, parseBody(ctx, RuleSetUpdate));
  });
  router.delete('/rule-sets/:id', ...requireAdmin, async (ctx) => {
    ctx.body = await deactivateRuleSet(db, parseId(ctx.params.id, 'Rule set'));
  });

  router.post('/inspections', requireUser, documented({ body: InspectBody }), async (ctx) => {
    const input = parseBody(ctx, InspectBody);
    const id = await inspect(db, reader(ctx).id, input, { trigger: 'manual' });
    ctx.status = 201;
    ctx.set('Location', `/api/compliance/inspections/${id}`);
    ctx.body = await readInspection(db, links, reader(ctx), id);
  });
  router.get('/inspections', requireUser, documented({ query: InspectionListQuery }), async (ctx) => {
    ctx.body = await listInspectionsFor(db, reader(ctx), parseQuery(ctx, InspectionListQuery));
  });
  router.get('/inspections/export', ...requireAdmin, documented({ query: InspectionExportQuery }), async (ctx) => {
    const filter = { ...parseQuery(ctx, InspectionExportQuery), time_zone: await readConfigValue<string>(db, 'timezone') };
    const stream = await exportInspections(db, filter);
    sendWorkbook(ctx, stream, exportFileName(filter));
  });
  router.get('/inspections/:id', requireUser, async (ctx) => {
    ctx.body = await readInspection(db, links, reader(ctx), parseId(ctx.params.id, 'Inspection'));
  });

  // The call's audio, seekable: with the Bearer header, or with the signed ?token= of an evidence's audio_url.
  const bearerUnlessToken = (ctx: Context, next: Next) => (typeof ctx.query.token === 'string' ? next() : requireUser(ctx, next));
  router.get('/inspections/:id/recording', bearerUnlessToken, async (ctx) => {
    const id = parseId(ctx.params.id, 'Inspection');
    let listener: Reader;
    if (typeof ctx.query.token === 'string') {
      const checked = links.check(id, ctx.query.token);
      if ('refused' in checked) throw new AppError(401, CoachingErrorCode.invalidRecordingToken, checked.refused === 'expired' ? 'This audio link has expired: read the inspection again for a fresh one' : 'This audio link is not valid');
      const row = await findCachedUserRow(db, checked.readerId);
      if (!row || row.status !== 'active') throw new AppError(401, CoachingErrorCode.invalidRecordingToken, 'This audio link belongs to an account that is no longer active');
      listener = { id: Number(row.id), role: row.role };
    } else listener = reader(ctx);
    const stored = await visibleInspection(db, listener, id);
    if (!(await mayListen(db, listener, stored))) throw new AppError(403, CoachingErrorCode.adminListenOff, "Listening to a rep's call is off for administrators (system parameter coaching_admin_listen)");
    if (!stored.local) throw new AppError(404, AudioErrorCode.recordingUnavailable, 'The audio of this call stayed on the laptop where it was inspected');
    await sendRecording(ctx, db, storage, stored.inspection.transcription_id);
  });

  router.get('/stats', ...requireAdmin, documented({ query: StatsQuery }), async (ctx) => {
    ctx.body = await complianceStats(db, parseQuery(ctx, StatsQuery));
  });

  return router;
}
