import type { Db } from '../db/knex.js';
import { NotificationType, type Notification } from '../../contract/notifications.js';
import { toBool } from '../db/rows.js';
import { now } from '../db/time.js';
import { insertJsonRows, type Columns } from '../db/json-rows.js';
import { toLocale, type Locale, type LocalizedContent } from './messages.js';

export interface NotificationContent {
  title: string;
  content?: string;
  link?: string;
  type?: string;
}

interface NotificationRow {
  id: number;
  user_id: number;
  type: string;
  title: string;
  content: string;
  link: string;
  read: number | boolean;
  created_at: string;
}

export const toNotification = (row: NotificationRow): Notification => ({
  id: Number(row.id),
  user_id: Number(row.user_id),
  type: row.type,
  title: row.title,
  content: row.content,
  link: row.link,
  read: toBool(row.read),
  created_at: row.created_at,
});

/** Owner texts that mean "nobody": assignment to them notifies no one. */
export const UNASSIGNED_MARKERS = new Set(['', '-', 'unassigned', 'none', '未分配', '待分配', '无']);

/** Fixed texts (an admin's notice) or texts in each recipient's language. */
export type Message = NotificationContent | LocalizedContent;

async function localesOf(db: Db, ids: number[]): Promise<Map<number, Locale>> {
  const locales = new Map<number, Locale>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows: { id: number; locale: string | null }[] = await db('users').whereIn('id', ids.slice(i, i + 500)).select('id', 'locale');
    for (const row of rows) locales.set(Number(row.id), toLocale(row.locale));
  }
  return locales;
}

interface NotificationInsert {
  user_id: number;
  type: string;
  title: string;
  content: string;
  link: string;
  read: boolean;
  created_at: string;
}

const NOTIFICATION_COLUMNS: Columns<NotificationInsert> = [
  ['user_id', 'integer'],
  ['type', 'text'],
  ['title', 'text'],
  ['content', 'text'],
  ['link', 'text'],
  ['read', 'boolean'],
  ['created_at', 'text'],
];

/** Writes one notification per recipient in one statement (their rows bound as one JSON parameter). */
async function insertFor(db: Db, recipients: { id: number; locale: Locale }[], message: Message, type: string): Promise<number> {
  const created_at = now();
  const rows = recipients.map(({ id, locale }) => {
    const content = typeof message === 'function' ? message(locale) : message;
    return { user_id: id, type: content.type ?? type, title: content.title, content: content.content ?? '', link: content.link ?? '', read: false, created_at };
  });
  for (let i = 0; i < rows.length; i += 10_000) await insertJsonRows(db, 'notifications', NOTIFICATION_COLUMNS, rows.slice(i, i + 10_000));
  return rows.length;
}

async function deliver(db: Db, userIds: number[], message: Message, fallbackType: string): Promise<number> {
  const ids = [...new Set(userIds)].filter((id) => Number.isInteger(id) && id > 0);
  if (!ids.length) return 0;
  const locales = typeof message === 'function' ? await localesOf(db, ids) : undefined;
  return insertFor(db, ids.map((id) => ({ id, locale: locales?.get(id) ?? 'zh-CN' })), message, fallbackType);
}

/** Directed notices to many users whose language the caller already read (users.locale), in one statement. */
export const notifyUsers = (db: Db, recipients: { id: number; locale: string | null }[], message: Message): Promise<number> =>
  insertFor(db, recipients.map((r) => ({ id: Number(r.id), locale: toLocale(r.locale) })), message, NotificationType.directed);

const activeUserIds = async (db: Db, role: 'employee' | 'admin'): Promise<number[]> =>
  (await db('users').where({ role, status: 'active' }).pluck('id')).map(Number);

/** The four event rules of spec part 6. Each returns how many notifications it created. */
export const notify = {
  /** A new formal exam is published → every active employee. */
  /** A new formal paper → its audience (every active employee when it has none). */
  examPublished: async (db: Db, message: Message, userIds?: number[]) =>
    deliver(db, userIds ?? (await activeUserIds(db, 'employee')), message, NotificationType.examPublished),

  /** A notice to every active employee. */
  employees: async (db: Db, message: Message) =>
    deliver(db, await activeUserIds(db, 'employee'), message, NotificationType.adminNotice),

  /** An administrative notice → every active admin (but `except`, the admin who caused it). */
  admins: async (db: Db, message: Message, except?: number) =>
    deliver(db, (await activeUserIds(db, 'admin')).filter((id) => id !== except), message, NotificationType.adminNotice),

  /** A task or item assigned to an owner name → active users whose full_name or username equals it. */
  owner: async (db: Db, ownerText: string | null | undefined, message: Message) => {
    const owner = (ownerText ?? '').trim();
    if (UNASSIGNED_MARKERS.has(owner.toLowerCase())) return 0;
    const ids = await db('users')
      .where({ status: 'active' })
      .andWhere((q) => q.where('full_name', owner).orWhere('username', owner))
      .pluck('id');
    return deliver(db, ids.map(Number), message, NotificationType.assignment);
  },

  /** A directed notice to one user; id 0 (or a user that does not exist) is ignored. */
  user: async (db: Db, userId: number, message: Message) => {
    if (!userId) return 0;
    const exists = await db('users').where({ id: userId }).first('id');
    return exists ? deliver(db, [userId], message, NotificationType.directed) : 0;
  },
};

export async function listNotifications(db: Db, userId: number, unreadOnly: boolean): Promise<Notification[]> {
  const query = db<NotificationRow>('notifications').where({ user_id: userId });
  if (unreadOnly) query.where({ read: false });
  const rows = await query.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(100);
  return rows.map(toNotification);
}

export async function unreadCount(db: Db, userId: number): Promise<number> {
  const row = await db('notifications').where({ user_id: userId, read: false }).count({ count: '*' }).first();
  return Number(row?.count ?? 0);
}

export const findNotification = async (db: Db, id: number): Promise<Notification | undefined> => {
  const row = await db<NotificationRow>('notifications').where({ id }).first();
  return row && toNotification(row);
};

export const markRead = (db: Db, id: number) => db('notifications').where({ id }).update({ read: true });

export const markAllRead = (db: Db, userId: number) => db('notifications').where({ user_id: userId, read: false }).update({ read: true });
