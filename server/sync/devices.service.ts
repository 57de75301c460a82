// Central: creating, listing and revoking devices, and enrolment (token → credential).
import crypto from 'node:crypto';
import type { Context } from 'koa';
import type { Db } from '../db/knex.js';
import type { CreatedDevice, Enrolment } from '../../contract/sync.js';
import { SyncErrorCode } from '../../contract/sync.js';
import { AppError, notFound } from '../http/errors.js';
import { currentUser } from '../auth/guards.js';
import { audit } from '../security/audit.js';
import { CREDENTIAL_PREFIX, ENROLMENT_PREFIX, newSecret, secretHash } from './credentials.js';
import { consumeEnrolment, insertDevice, revokeDevice } from './devices.repository.js';

const ENROLMENT_DAYS = 7;

export async function createDevice(db: Db, ctx: Context, name: string): Promise<CreatedDevice> {
  const token = newSecret(ENROLMENT_PREFIX);
  const expiresAt = new Date(Date.now() + ENROLMENT_DAYS * 86_400_000).toISOString();
  const id = await insertDevice(db, { name, gid: crypto.randomUUID(), enrolment_token_hash: secretHash(token), enrolment_expires_at: expiresAt, created_by: currentUser(ctx).id });
  await audit(db, ctx, { action: 'sync.device_created', device_id: id, target: name });
  return { device_id: id, enrolment_token: token, expires_at: expiresAt };
}

export async function revoke(db: Db, ctx: Context, id: number): Promise<void> {
  if (!(await db('sync_devices').where({ id }).first('id'))) throw notFound('Device');
  await revokeDevice(db, id);
  await audit(db, ctx, { action: 'sync.device_revoked', device_id: id, target: String(id) });
}

export async function enrol(db: Db, ctx: Context, token: string, appVersion: string | null): Promise<Enrolment> {
  const credential = newSecret(CREDENTIAL_PREFIX);
  const device = await consumeEnrolment(db, secretHash(token), secretHash(credential), appVersion);
  if (!device) throw new AppError(401, SyncErrorCode.enrolmentRefused, 'This enrolment token is unknown, already used, expired or revoked');
  await audit(db, ctx, { action: 'sync.device_enrolled', device_id: device.id, target: device.name, detail: { app_version: appVersion } });
  return { device_id: device.id, device_gid: device.gid, credential };
}
