// Inspections go up to the central server like exam records (docs/sync.md): appended to the branch's outbox by id,
// pushed once with gids for their user and product, and stored centrally once per gid (a push seen again is
// answered "accepted" without a second row). Centrally they keep their results and name the device they came from;
// their transcription and audio stay on the laptop.
import type { Db } from '../db/knex.js';
import type { PushedInspection, PushResult } from '../../contract/sync.js';
import type { UpContext } from '../sync/up.central.js';
import { gidMap } from '../sync/entities.js';
import { notify } from '../notifications/notifications.service.js';
import { complianceViolation } from '../notifications/messages.js';
import { parseJson, toNumber } from '../db/rows.js';
import { insertInspection } from './compliance.repository.js';
import type { InspectionBody } from '../../contract/compliance.js';

interface Waiting {
  change_id: string;
  row_id: number;
}

/** Branch: the inspections waiting in the outbox, as pushed, by change id. */
export async function inspectionChanges(db: Db, waiting: Waiting[]): Promise<Map<string, { change_id: string; entity: 'compliance_inspection'; data: PushedInspection }>> {
  if (!waiting.length) return new Map();
  const rows = (await db('compliance_inspections as i')
    .join('users as u', 'u.id', 'i.user_id')
    .leftJoin('products as p', 'p.id', 'i.product_id')
    .leftJoin('compliance_rule_sets as s', 's.id', 'i.rule_set_id')
    .whereIn('i.id', waiting.map((w) => w.row_id))
    .select('i.*', 'u.gid as user_gid', 'p.gid as product_gid', 's.gid as rule_set_gid')) as Record<string, unknown>[];
  return new Map(
    rows.map((r) => {
      const data: PushedInspection = {
        gid: String(r.gid),
        user_gid: String(r.user_gid),
        product_gid: (r.product_gid as string | null) ?? null,
        transcription_id: toNumber(r.transcription_id),
        revision: toNumber(r.revision),
        rule_set_id: toNumber(r.rule_set_id),
        rule_set_version: toNumber(r.rule_set_version),
        rule_set_gid: (r.rule_set_gid as string | null) ?? null,
        department: String(r.department ?? ''),
        filename: String(r.filename ?? ''),
        rep_speaker: String(r.rep_speaker),
        score: toNumber(r.score),
        outcome: r.outcome as PushedInspection['outcome'],
        critical_failures: toNumber(r.critical_failures),
        customer_risk: (r.customer_risk as string | null) ?? null,
        trigger: r.trigger as PushedInspection['trigger'],
        body: parseJson<InspectionBody>(r.body, { product: null, results: [], second_opinion: { status: 'off', findings: [] } }),
        created_at: String(r.created_at),
      };
      return [data.gid, { change_id: data.gid, entity: 'compliance_inspection' as const, data }];
    }),
  );
}

/** Central: each inspection once (by gid); a user unknown here is a conflict, as for records. */
export async function receiveInspections({ db, deviceId }: UpContext, changes: { change_id: string; data: PushedInspection }[]): Promise<PushResult[]> {
  const users = (await gidMap(db, 'users', 'gid', changes.map((c) => c.data.user_gid))) as Map<string, number>;
  const products = (await gidMap(db, 'products', 'gid', changes.map((c) => c.data.product_gid))) as Map<string, number>;
  const ruleSets = (await gidMap(db, 'compliance_rule_sets', 'gid', changes.map((c) => c.data.rule_set_gid))) as Map<string, number>;
  const results: PushResult[] = [];
  for (const { change_id, data } of changes) {
    const user_id = users.get(data.user_gid);
    if (user_id === undefined) {
      results.push({ change_id, outcome: 'conflict', reason: `user ${data.user_gid} is not known centrally` });
      continue;
    }
    if (await db('compliance_inspections').where({ gid: data.gid }).first('id')) {
      results.push({ change_id, outcome: 'accepted', reason: null });
      continue;
    }
    const { user_gid: _user, product_gid, rule_set_gid, ...fields } = data;
    const id = await insertInspection(db, {
      ...fields,
      // A central rule set: its central id (a branch's own set keeps the branch's id, as before).
      rule_set_id: (rule_set_gid ? ruleSets.get(rule_set_gid) : undefined) ?? fields.rule_set_id,
      user_id,
      product_id: product_gid ? (products.get(product_gid) ?? null) : null,
      origin_device: String(deviceId ?? 'branch'),
    });
    const fails = data.body.results.filter((r) => r.outcome === 'fail' && r.severity === 'critical');
    if (fails.length) {
      const user = (await db('users').where({ id: user_id }).first('username', 'full_name')) as { username: string; full_name: string | null };
      await notify.admins(db, complianceViolation({ id, filename: data.filename, rep: user.full_name || user.username }, fails.map((r) => r.name)));
    }
    results.push({ change_id, outcome: 'accepted', reason: null });
  }
  return results;
}
