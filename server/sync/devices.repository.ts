// Central: branch devices, their enrolment and credentials (hashes only), and what they last did.
import type { Db } from '../db/knex.js';
import type { SyncDevice } from '../../contract/sync.js';
import { now } from '../db/time.js';
import { toNumber } from '../db/rows.js';

/** The stored row: the device as listed, but hashes instead of derived states. */
export type DeviceRow = Omit<SyncDevice, 'state' | 'revoked' | 'flagged'> & {
  enrolment_token_hash: string | null;
  credential_hash: string | null;
};

function stateOf(row: DeviceRow): SyncDevice['state'] {
  if (row.revoked_at) return 'revoked';
  if (row.enrolled_at) return 'enrolled';
  return row.enrolment_expires_at && row.enrolment_expires_at > now() ? 'waiting' : 'expired';
}

export const toDevice = (row: DeviceRow): SyncDevice => ({
  id: Number(row.id),
  gid: row.gid,
  name: row.name,
  state: stateOf(row),
  enrolment_expires_at: row.enrolled_at ? null : row.enrolment_expires_at,
  enrolled_at: row.enrolled_at,
  revoked: !!row.revoked_at,
  revoked_at: row.revoked_at,
  flagged: !!row.flagged_at,
  flagged_at: row.flagged_at,
  flag_reason: row.flag_reason,
  app_version: row.app_version,
  last_seen_at: row.last_seen_at,
  last_push_at: row.last_push_at,
  pushed_total: toNumber(row.pushed_total),
  refused_total: toNumber(row.refused_total),
  last_pull_at: row.last_pull_at,
  last_pull_cursor: row.last_pull_cursor,
  created_at: row.created_at,
});

export async function insertDevice(db: Db, fields: { name: string; gid: string; enrolment_token_hash: string; enrolment_expires_at: string; created_by: number }): Promise<number> {
  const [row] = await db('sync_devices').insert({ ...fields, created_at: now() }).returning('id');
  return Number((row as { id: number }).id);
}

export const listDevices = async (db: Db): Promise<SyncDevice[]> => ((await db<DeviceRow>('sync_devices').orderBy('id')) as DeviceRow[]).map(toDevice);

export const findDevice = (db: Db, where: Partial<Pick<DeviceRow, 'id' | 'credential_hash' | 'enrolment_token_hash'>>): Promise<DeviceRow | undefined> =>
  db<DeviceRow>('sync_devices').where(where).first();

/** Uses an enrolment token once: only an unexpired, unused token of a device that is not revoked. */
export async function consumeEnrolment(db: Db, tokenHash: string, credentialHash: string, appVersion: string | null): Promise<DeviceRow | undefined> {
  const at = now();
  const changed = await db('sync_devices')
    .where({ enrolment_token_hash: tokenHash })
    .whereNull('enrolled_at')
    .whereNull('revoked_at')
    .where('enrolment_expires_at', '>', at)
    .update({ enrolment_token_hash: null, credential_hash: credentialHash, enrolled_at: at, app_version: appVersion, last_seen_at: at });
  return Number(changed) === 1 ? findDevice(db, { credential_hash: credentialHash }) : undefined;
}

/** Revokes a device: its credential stops working at once, and an unused enrolment token with it. */
export async function revokeDevice(db: Db, id: number): Promise<boolean> {
  const changed = await db('sync_devices').where({ id }).whereNull('revoked_at').update({ revoked_at: now(), enrolment_token_hash: null });
  return Number(changed) === 1;
}

export async function touchDevice(db: Db, id: number, patch: Partial<DeviceRow> = {}): Promise<void> {
  await db('sync_devices').where({ id }).update({ last_seen_at: now(), ...patch });
}

export async function flagDevice(db: Db, id: number, reason: string): Promise<void> {
  await db('sync_devices').where({ id }).update({ flagged_at: now(), flag_reason: reason, refused_total: db.raw('refused_total + 1') });
}

export async function countPushed(db: Db, id: number, accepted: number): Promise<void> {
  await db('sync_devices').where({ id }).update({ last_push_at: now(), last_seen_at: now(), pushed_total: db.raw('pushed_total + ?', [accepted]) });
}
