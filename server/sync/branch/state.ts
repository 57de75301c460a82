// Branch: its enrolment with the central server (one row of sync_state) and where the sync stands.
import type { Db } from '../../db/knex.js';
import { now } from '../../db/time.js';
import type { Central } from './central-client.js';

export interface Enrolled {
  central_url: string;
  ca_cert: string | null;
  device_id: number;
  device_gid: string;
  credential: string;
  cursor: string | null;
  last_success_at: string | null;
  last_error: string | null;
}

export const readEnrolment = (db: Db): Promise<Enrolled | undefined> => db('sync_state').where({ id: 1 }).first() as Promise<Enrolled | undefined>;

export const centralOf = (e: Enrolled): Central => ({ url: e.central_url, ca: e.ca_cert, credential: e.credential });

export async function saveEnrolment(db: Db, e: Pick<Enrolled, 'central_url' | 'ca_cert' | 'device_id' | 'device_gid' | 'credential'>): Promise<void> {
  await db('sync_state').where({ id: 1 }).delete();
  await db('sync_state').insert({ id: 1, ...e, cursor: null, last_success_at: null, last_error: null, updated_at: now() });
}

export async function updateEnrolment(db: Db, patch: Partial<Pick<Enrolled, 'cursor' | 'last_success_at' | 'last_error'>>): Promise<void> {
  await db('sync_state').where({ id: 1 }).update({ ...patch, updated_at: now() });
}
