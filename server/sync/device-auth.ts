// `Authorization: Device <credential>` on the device routes (enrol excepted): the device must be enrolled and not
// revoked. User tokens are not accepted here, and a device credential is never accepted as a user token (requireUser
// only takes a JWT).
import type { Context, Middleware, Next } from 'koa';
import type { Db } from '../db/knex.js';
import { unauthorized } from '../http/errors.js';
import { secretHash } from './credentials.js';
import { findDevice, touchDevice, type DeviceRow } from './devices.repository.js';

declare module 'koa' {
  interface DefaultState {
    device?: DeviceRow;
  }
}

export function currentDevice(ctx: Context): DeviceRow {
  const device = ctx.state.device;
  if (!device) throw unauthorized('Device authentication required');
  return device;
}

export function requireDevice(db: Db): Middleware {
  return async (ctx: Context, next: Next) => {
    const match = /^Device\s+(\S+)$/i.exec(ctx.get('authorization'));
    if (!match) throw unauthorized('Device authentication required');
    const device = await findDevice(db, { credential_hash: secretHash(match[1]!) });
    if (!device || device.revoked_at || !device.enrolled_at) throw unauthorized('This device is not enrolled or has been revoked');
    const version = ctx.get('x-trainbench-version');
    await touchDevice(db, device.id, version ? { app_version: version.slice(0, 32) } : {});
    ctx.state.device = device;
    await next();
  };
}
