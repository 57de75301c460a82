// Assembles what the coach model sees for one message: instructions, recent turns, the question.
import type { Db } from '../db/knex.js';
import type { Product } from '../../contract/catalog.js';
import type { ChatMessage } from '../ai/llm.js';
import { searchChunks, type ChunkHit } from '../knowledge/search.js';
import { activeProductById } from './action-support.js';
import { coachInstructions } from './coach-prompt.js';
import { recentMessages } from './history.js';
import type { MessageInput } from './chat.schema.js';
import { rolePlayOf, type Reader } from '../coaching/reports.service.js';

/** Finished exchanges (question + reply) of the conversation that go into each prompt. */
export const HISTORY_TURNS_IN_PROMPT = 6;
export const RETRIEVED_CHUNKS = 5;

/** Retrieval only enriches the answer: when it fails the coach answers without excerpts. */
export async function retrieveChunks(db: Db, question: string): Promise<ChunkHit[]> {
  try {
    return await searchChunks(db, question, RETRIEVED_CHUNKS);
  } catch (err) {
    if (process.env.NODE_ENV !== 'test') console.warn('[trainbench] knowledge retrieval failed; the coach answers without excerpts:', err);
    return [];
  }
}

/**
 * The product of the page context when it is active. An unknown or inactive id is left out rather than refused:
 * a client on a stale page (the product since deleted or retired) still gets an answer.
 */
export async function contextProduct(db: Db, productId: number | null | undefined): Promise<Product | null> {
  if (!productId) return null;
  return (await activeProductById(db, productId)) ?? null;
}

export interface CoachPrompt {
  messages: ChatMessage[];
  product: Product | null;
}

export async function coachPrompt(db: Db, user: Reader, input: MessageInput): Promise<CoachPrompt> {
  // Checked first: an unknown report is a 404 before anything streams.
  const rolePlay = input.context?.coaching_report_id ? await rolePlayOf(db, user, input.context.coaching_report_id) : undefined;
  const [product, chunks, history] = await Promise.all([
    contextProduct(db, input.context?.product_id ?? rolePlay?.productId),
    retrieveChunks(db, input.message),
    recentMessages(db, user.id, HISTORY_TURNS_IN_PROMPT * 2),
  ]);
  const system = coachInstructions({ product, chunks, page: input.context?.page || undefined, rolePlay: rolePlay?.instructions });
  return {
    product,
    messages: [{ role: 'system', content: system }, ...history.map(({ role, content }) => ({ role, content })), { role: 'user', content: input.message }],
  };
}
