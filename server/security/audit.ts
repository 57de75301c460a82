// The audit log of admin and sync actions: who, what, when, from which address or device.
import type { Context } from 'koa';
import type { Db } from '../db/knex.js';
import type { Page } from '../../contract/envelope.js';
import type { AuditEntry } from '../../contract/security.js';
import { now } from '../db/time.js';
import { paginate, type Paging } from '../db/paginate.js';
import { parseJson } from '../db/rows.js';

export interface AuditEvent {
  action: string;
  target?: string;
  detail?: Record<string, unknown>;
  device_id?: number | null;
}

/** Writes one entry; the actor (signed-in user) and address come from the request when there is one. */
export async function audit(db: Db, ctx: Context | undefined, event: AuditEvent): Promise<void> {
  const user = ctx?.state.user;
  await db('audit_log').insert({
    at: now(),
    action: event.action,
    user_id: user?.id ?? null,
    username: user?.username ?? null,
    device_id: event.device_id ?? null,
    address: ctx?.ip ?? null,
    target: event.target ?? '',
    detail: JSON.stringify(event.detail ?? {}),
  });
}

export interface AuditFilter extends Paging {
  action?: string;
  device_id?: number;
}

export async function listAudit(db: Db, filter: AuditFilter): Promise<Page<AuditEntry>> {
  const base = db('audit_log');
  if (filter.action) base.where('action', filter.action);
  if (filter.device_id) base.where('device_id', filter.device_id);
  return paginate(base, filter, (q) => q.select('*').orderBy('id', 'desc'), (row: Record<string, unknown>) => ({
    id: Number(row.id),
    at: String(row.at),
    action: String(row.action),
    user_id: row.user_id === null ? null : Number(row.user_id),
    username: (row.username as string | null) ?? null,
    device_id: row.device_id === null ? null : Number(row.device_id),
    address: (row.address as string | null) ?? null,
    target: String(row.target),
    detail: parseJson<Record<string, unknown>>(row.detail, {}),
  }));
}
