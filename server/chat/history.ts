// The coach conversation of each user: one rolling thread of finished exchanges.
import type { Db } from '../db/knex.js';
import type { ChatHistoryMessage } from '../../contract/ai.js';
import { toNullableNumber } from '../db/rows.js';
import { now } from '../db/time.js';

/** Older messages are pruned past this many per user. */
const KEPT_MESSAGES_PER_USER = 200;

type MessageRow = Omit<ChatHistoryMessage, 'id'> & { id: number | string; user_id: number };

const toMessage = (r: MessageRow): ChatHistoryMessage => ({
  id: Number(r.id),
  role: r.role,
  content: r.content,
  product_id: toNullableNumber(r.product_id),
  created_at: r.created_at,
});

/** The user's latest messages, oldest first. */
export async function recentMessages(db: Db, userId: number, limit: number): Promise<ChatHistoryMessage[]> {
  const rows: MessageRow[] = await db('chat_messages').where({ user_id: userId }).orderBy('id', 'desc').limit(limit);
  return rows.reverse().map(toMessage);
}

/** Stores a finished exchange (question and reply) and prunes what falls past the kept window. */
export async function appendExchange(db: Db, userId: number, productId: number | null, question: string, reply: string): Promise<void> {
  const stamp = now();
  await db('chat_messages').insert([
    { user_id: userId, role: 'user', content: question, product_id: productId, created_at: stamp },
    { user_id: userId, role: 'assistant', content: reply, product_id: productId, created_at: stamp },
  ]);
  const cutoff: { id: number } | undefined = await db('chat_messages').where({ user_id: userId }).orderBy('id', 'desc').offset(KEPT_MESSAGES_PER_USER).first('id');
  if (cutoff) await db('chat_messages').where({ user_id: userId }).where('id', '<=', cutoff.id).delete();
}

export async function clearHistory(db: Db, userId: number): Promise<number> {
  return db('chat_messages').where({ user_id: userId }).delete();
}
