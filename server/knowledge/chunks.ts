// Knowledge chunks: the shared store that knowledge sources and approved media are ingested into.
// Owned by the knowledge domain; the media domain calls replaceChunks after extracting a file's text.
import type { Db } from '../db/knex.js';

export interface ChunkOrigin {
  source_type: 'knowledge' | 'media';
  source_id: number;
  /** Shown with search results (the source's title or the media filename). */
  title: string;
}

/** Splits prose into chunks along headings, each at most maxChars long. */
export function splitIntoChunks(_text: string, _maxChars = 1200): string[] {
  throw new Error('splitIntoChunks: implemented by the knowledge domain');
}

/** Replaces every chunk of that origin with the given ones (in one statement batch on the given transaction) and indexes them for search; returns the count. */
export async function replaceChunks(_db: Db, _origin: ChunkOrigin, _chunks: string[]): Promise<number> {
  throw new Error('replaceChunks: implemented by the knowledge domain');
}
