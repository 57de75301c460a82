// Finished role-play sessions go up to the central server like exam records (docs/sync.md): queued in the branch's
// outbox once finished (by gid, so a session finished after a later one is still queued once), pushed with gids for
// their user and scenario, stored centrally once per gid. Scenarios come down as the `roleplay_scenario` entity
// (sync/entities.ts). Practice items stay on the laptop that made them.
import type { Db } from '../db/knex.js';
import type { PushedRoleplaySession, PushResult } from '../../contract/sync.js';
import type { UpContext } from '../sync/up.central.js';
import { gidMap } from '../sync/entities.js';
import { parseJson, toBool, toNumber } from '../db/rows.js';
import { now } from '../db/time.js';

const ENTITY = 'roleplay_session';

const finishedHere = `status = 'finished' AND from_branch = ? AND gid NOT IN (SELECT change_id FROM sync_outbox)`;

/** Branch: queues every session finished here and not queued yet. */
export async function enqueueFinishedSessions(db: Db): Promise<void> {
  await db.raw(`INSERT INTO sync_outbox (change_id, entity, row_id, created_at) SELECT gid, ?, id, ? FROM roleplay_sessions WHERE ${finishedHere} ORDER BY id`, [ENTITY, now(), false]);
}

/** Branch, at enrolment: sessions played before it stay local, like records. */
export async function skipExistingSessions(db: Db): Promise<void> {
  const stamp = now();
  await db.raw(
    `INSERT INTO sync_outbox (change_id, entity, row_id, created_at, sent_at, outcome, reason)
     SELECT gid, ?, id, ?, ?, 'skipped', 'made before the enrolment' FROM roleplay_sessions WHERE ${finishedHere}`,
    [ENTITY, stamp, stamp, false],
  );
}

interface Waiting {
  change_id: string;
  row_id: number;
}

/** Branch: the queued sessions as pushed, by change id. */
export async function roleplaySessionChanges(db: Db, waiting: Waiting[]): Promise<Map<string, { change_id: string; entity: 'roleplay_session'; data: PushedRoleplaySession }>> {
  if (!waiting.length) return new Map();
  const rows = (await db('roleplay_sessions as s')
    .join('users as u', 'u.id', 's.user_id')
    .join('roleplay_scenarios as sc', 'sc.id', 's.scenario_id')
    .whereIn('s.id', waiting.map((w) => w.row_id))
    .select('s.*', 'u.gid as user_gid', 'sc.gid as scenario_gid')) as Record<string, unknown>[];
  return new Map(
    rows.map((r) => {
      const data: PushedRoleplaySession = {
        gid: String(r.gid),
        user_gid: String(r.user_gid),
        scenario_gid: String(r.scenario_gid),
        mode: r.mode as PushedRoleplaySession['mode'],
        turns: parseJson<unknown[]>(r.turns, []),
        score: toNumber(r.score),
        passed: toBool(r.passed),
        report: { ...parseJson<Record<string, unknown>>(r.report, {}), practice_item_ids: [] },
        created_at: String(r.created_at),
        finished_at: String(r.finished_at),
      };
      return [data.gid, { change_id: data.gid, entity: ENTITY, data }];
    }),
  );
}

/** Central: each session once (by gid); an unknown user or scenario is a conflict, as for records. */
export async function receiveRoleplaySessions({ db }: UpContext, changes: { change_id: string; data: PushedRoleplaySession }[]): Promise<PushResult[]> {
  const users = (await gidMap(db, 'users', 'gid', changes.map((c) => c.data.user_gid))) as Map<string, number>;
  const scenarios = (await gidMap(db, 'roleplay_scenarios', 'gid', changes.map((c) => c.data.scenario_gid))) as Map<string, number>;
  const results: PushResult[] = [];
  for (const { change_id, data } of changes) {
    const user_id = users.get(data.user_gid);
    const scenario_id = scenarios.get(data.scenario_gid);
    if (user_id === undefined || scenario_id === undefined) {
      results.push({ change_id, outcome: 'conflict', reason: user_id === undefined ? `user ${data.user_gid} is not known centrally` : `scenario ${data.scenario_gid} is not known centrally` });
      continue;
    }
    if (!(await db('roleplay_sessions').where({ gid: data.gid }).first('id'))) {
      await db('roleplay_sessions').insert({
        gid: data.gid,
        user_id,
        scenario_id,
        status: 'finished',
        mode: data.mode,
        turns: JSON.stringify(data.turns),
        score: data.score,
        passed: data.passed,
        report: JSON.stringify(data.report),
        created_at: data.created_at,
        updated_at: now(),
        finished_at: data.finished_at,
        synced_at: now(),
        from_branch: true,
      });
    }
    results.push({ change_id, outcome: 'accepted', reason: null });
  }
  return results;
}
