// One person, one name: usernames are unique whatever their case (`ADMIN` beside `admin` would log in as someone
// else). A unique index on lower(username) holds it on both dialects. An install whose users already clash keeps
// them as they are and its admins are told which names clash; the index is made once a rename leaves none.
import type { Knex } from 'knex';
import { now } from '../db/time.js';

export const USERNAME_INDEX = 'users_username_lower_unique';

/** Usernames that differ only in case, grouped (each group sorted by id). */
export async function usernameClashes(db: Knex): Promise<string[][]> {
  const keys = (await db('users').groupByRaw('lower(username)').havingRaw('count(*) > 1').select(db.raw('lower(username) as name_key'))) as { name_key: string }[];
  if (!keys.length) return [];
  const rows = (await db('users')
    .whereRaw(`lower(username) in (${keys.map(() => '?').join(', ')})`, keys.map((k) => k.name_key))
    .orderBy('id')
    .select('username', db.raw('lower(username) as name_key'))) as { username: string; name_key: string }[];
  const groups = new Map<string, string[]>();
  for (const row of rows) groups.set(row.name_key, [...(groups.get(row.name_key) ?? []), row.username]);
  return [...groups.values()];
}

async function hasIndex(db: Knex): Promise<boolean> {
  const rows =
    db.client.config.client === 'pg'
      ? await db('pg_indexes').whereRaw('schemaname = current_schema()').andWhere({ indexname: USERNAME_INDEX }).select('indexname')
      : await db('sqlite_master').where({ type: 'index', name: USERNAME_INDEX }).select('name');
  return rows.length > 0;
}

const clashNotice = (groups: string[][], locale: 'zh-CN' | 'en') => {
  const list = groups.map((g) => g.join(' / ')).join(locale === 'en' ? '; ' : '；');
  return locale === 'en'
    ? { title: 'Usernames that differ only in case', content: `These accounts have usernames that differ only in upper and lower case: ${list}. Each still signs in as before only with its exact spelling; rename all but one so that every person has one name.` }
    : { title: '存在仅大小写不同的用户名', content: `以下账号的用户名仅大小写不同：${list}。在改名之前，它们只能按原有的准确写法登录；请保留其中一个，其余改名，使每人只有一个用户名。` };
};

/**
 * Makes the case-insensitive unique index when no usernames clash and answers true; otherwise leaves every row as
 * it is, tells each active admin once which names clash (an admin notice) and answers false.
 */
export async function ensureCaselessUsernames(db: Knex, { tellAdmins }: { tellAdmins: boolean }): Promise<boolean> {
  if (await hasIndex(db)) return true;
  const groups = await usernameClashes(db);
  if (!groups.length) {
    await db.raw('CREATE UNIQUE INDEX ?? ON users (lower(username))', [USERNAME_INDEX]);
    return true;
  }
  if (tellAdmins) {
    const admins = (await db('users').where({ role: 'admin', status: 'active' }).select('id', 'locale')) as { id: number; locale: string | null }[];
    const created_at = now();
    for (const admin of admins) {
      const notice = clashNotice(groups, admin.locale?.startsWith('en') ? 'en' : 'zh-CN');
      await db('notifications').insert({ user_id: admin.id, type: 'admin_notice', ...notice, link: '/admin/users', read: false, created_at });
    }
  }
  return false;
}
