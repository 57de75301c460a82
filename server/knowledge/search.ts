// Full-text retrieval over approved knowledge chunks. Owned by the knowledge domain; the AI coach uses it.
import type { Db } from '../db/knex.js';

export interface ChunkHit {
  id: number;
  content: string;
  score: number;
  source: { type: 'knowledge' | 'media'; id: number; title: string };
}

/** Ranked chunks of approved sources matching q (Chinese text included); [] for an empty query. */
export async function searchChunks(_db: Db, _q: string, _limit = 5): Promise<ChunkHit[]> {
  throw new Error('searchChunks: implemented by the knowledge domain');
}
