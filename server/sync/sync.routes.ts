// /api/sync: devices (central admin), the device routes (enrol, push, pull, files) and the branch's own sync.
import Router from '@koa/router';
import type { Deps } from '../context.js';
import { parseBody, parseId, parseQuery } from '../http/validate.js';
import { notFound } from '../http/errors.js';
import { audit } from '../security/audit.js';
import { currentDevice, requireDevice } from './device-auth.js';
import { createDevice, enrol, revoke } from './devices.service.js';
import { listDevices, touchDevice } from './devices.repository.js';
import { receivePush } from './push.central.js';
import { pullPage } from './pull.central.js';
import { serveFile } from './files.central.js';
import { receiveUpload, uploadState } from './uploads.central.js';
import { BranchSync } from './branch/runner.js';
import { isPostgres } from '../db/knex.js';
import { markAuth } from '../http/openapi.js';
import { ConfigBody, DeviceBody, EnrolBody, PullQuery, PushBody } from './sync.schema.js';
import { now } from '../db/time.js';
import { documented } from '../http/openapi.js';

const fileGid = (gid: string | undefined): string => {
  if (!gid || !/^[0-9a-f-]{36}$/.test(gid)) throw notFound('File');
  return gid;
};

export function syncRoutes({ db, config, storage, jobs, requireAdmin, requireUser, onClose }: Deps): Router {
  const router = new Router();
  const device = markAuth(requireDevice(db), 'device');
  const branch = new BranchSync(db, config.dataDir, config.syncIntervalSeconds, storage);
  void branch.start();
  // A laptop's periodic sync (a central server on PostgreSQL is never a branch): the job looks each second whether
  // the run's time (interval, or backoff while offline) has come.
  if (!isPostgres(db)) jobs.schedule('sync-branch', { everyMs: 1000 }, () => branch.runIfDue());
  onClose(() => branch.stop());

  // ---- central, admin
  router.post('/sync/devices', ...requireAdmin, documented({ body: DeviceBody }), async (ctx) => {
    const { name } = parseBody(ctx, DeviceBody);
    ctx.status = 201;
    ctx.body = await createDevice(db, ctx, name);
  });
  router.get('/sync/devices', ...requireAdmin, async (ctx) => {
    ctx.body = await listDevices(db);
  });
  router.delete('/sync/devices/:id', ...requireAdmin, async (ctx) => {
    await revoke(db, ctx, parseId(ctx.params.id, 'Device'));
    ctx.body = { revoked: true };
  });

  // ---- central, device-authenticated
  router.post('/sync/enrol', documented({ body: EnrolBody }), async (ctx) => {
    const { enrolment_token, app_version } = parseBody(ctx, EnrolBody);
    ctx.body = await enrol(db, ctx, enrolment_token, app_version ?? null);
  });
  router.post('/sync/push', device, documented({ body: PushBody }), async (ctx) => {
    const { changes } = parseBody(ctx, PushBody);
    ctx.body = { results: await receivePush(db, ctx, currentDevice(ctx), changes, storage) };
  });
  router.get('/sync/pull', device, documented({ query: PullQuery }), async (ctx) => {
    const { cursor, limit } = parseQuery(ctx, PullQuery);
    const page = await pullPage(db, storage, cursor, limit);
    await touchDevice(db, currentDevice(ctx).id, { last_pull_at: now(), last_pull_cursor: page.cursor });
    ctx.body = page;
  });
  router.get('/sync/files/:gid', device, async (ctx) => {
    await serveFile(ctx, db, storage, fileGid(ctx.params.gid));
  });
  // Files of the media a branch pushes, uploaded first and resumable.
  router.get('/sync/uploads/:gid', device, async (ctx) => {
    ctx.body = await uploadState(storage, fileGid(ctx.params.gid));
  });
  router.put('/sync/uploads/:gid', device, async (ctx) => {
    ctx.body = await receiveUpload(ctx, storage, fileGid(ctx.params.gid));
  });

  // ---- branch, admin
  router.put('/sync/config', ...requireAdmin, documented({ body: ConfigBody }), async (ctx) => {
    const input = parseBody(ctx, ConfigBody);
    await branch.enrol(input);
    await audit(db, ctx, { action: 'sync.branch_enrolled', target: input.central_url });
    ctx.body = await branch.status();
  });
  router.post('/sync/run', ...requireAdmin, async (ctx) => {
    ctx.body = await branch.run();
  });
  router.get('/sync/status', ...requireAdmin, async (ctx) => {
    ctx.body = await branch.status();
  });
  // ---- branch, everyone: the header's indicator
  router.get('/sync/indicator', requireUser, async (ctx) => {
    ctx.body = await branch.indicator();
  });

  return router;
}
