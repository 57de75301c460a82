// Full-text retrieval over approved knowledge chunks. Owned by the knowledge domain; the AI coach uses it.
//
// The full-text index (FTS5 on SQLite, GIN tsvector on PostgreSQL) only finds candidates; they are ranked here
// with BM25 over their text. The engines' own rankers cost time in proportion to every match of every term
// (FTS5's bm25 counts all rows of each phrase, ts_rank reads each matching row), which for a word found in most
// chunks is far over a search's budget. So candidates are bounded: at most CANDIDATES matching chunks.
import { isPostgres, type Db } from '../db/knex.js';
import { clearAfterWrite, perDatabase } from '../db/read-cache.js';
import type { KnowledgeChunkSourceType, KnowledgeSearchHit } from '../../contract/knowledge.js';
import { foldForMatching, isCjkText, queryTerms, type QueryTerm } from './terms.js';
import { ftsMatch, tsqueryLiteral } from './fts.js';

export type ChunkHit = KnowledgeSearchHit;

/** Most chunks ranked per search. */
const CANDIDATES = 100;
/** Matches looked up per term of a loose query; beyond that a term counts as common and weighs less. */
const PROBE = 200;
const LOOSE_TERMS = 24;
const K1 = 1.2;
const B = 0.75;

interface ChunkRow {
  id: number;
  content: string;
  title: string;
  source_type: KnowledgeChunkSourceType;
  source_id: number;
}

/**
 * Ids of chunks containing every term, at most `limit`: on SQLite the newest (FTS5 walks its doclists backwards
 * cheaply); on PostgreSQL whichever the scan meets first, since a GIN index has no order and sorting every match
 * would read them all.
 */
async function matchingIds(db: Db, terms: QueryTerm[], limit: number): Promise<number[]> {
  if (isPostgres(db)) {
    const result = await db.raw<{ rows: { id: number }[] }>('SELECT id FROM knowledge_chunks WHERE tsv @@ CAST(? AS tsquery) LIMIT ?', [
      tsqueryLiteral(terms),
      limit,
    ]);
    return result.rows.map((row) => Number(row.id));
  }
  const rows = await db.raw<{ id: number }[]>('SELECT rowid AS id FROM knowledge_chunks_fts WHERE knowledge_chunks_fts MATCH ? ORDER BY rowid DESC LIMIT ?', [ftsMatch(terms), limit]);
  return rows.map((row) => Number(row.id));
}

const loadChunks = (db: Db, ids: number[]): Promise<ChunkRow[]> =>
  ids.length ? db<ChunkRow>('knowledge_chunks').whereIn('id', ids).select('id', 'content', 'title', 'source_type', 'source_id') : Promise.resolve([]);

/** Occurrences of the term in folded text; words count only where a word starts (prefix match). */
function occurrences(text: string, term: QueryTerm): number {
  const atWordStart = term.kind === 'prefix' && !isCjkText(term.text);
  let count = 0;
  for (let at = text.indexOf(term.text); at >= 0; at = text.indexOf(term.text, at + term.text.length)) {
    if (!atWordStart || at === 0 || !/[\p{L}\p{N}]/u.test(text[at - 1]!)) count++;
  }
  return count;
}

/** BM25 over the candidates; `weights` are the terms' inverse document frequencies (all 1 when every candidate has every term). */
function rank(rows: ChunkRow[], terms: QueryTerm[], weights: number[], limit: number, everyTermMatched: boolean): ChunkHit[] {
  const texts = rows.map((row) => foldForMatching(row.content));
  const averageLength = texts.reduce((sum, text) => sum + text.length, 0) / Math.max(texts.length, 1) || 1;
  const scored = rows.map((row, i) => {
    const text = texts[i]!;
    const norm = K1 * (1 - B + (B * text.length) / averageLength);
    const score = terms.reduce((sum, term, k) => {
      const tf = Math.max(occurrences(text, term), everyTermMatched ? 1 : 0);
      return sum + (weights[k]! * tf * (K1 + 1)) / (tf + norm);
    }, 0);
    return { row, score };
  });
  scored.sort((a, b) => b.score - a.score || b.row.id - a.row.id);
  return scored.slice(0, limit).map(({ row, score }) => ({
    id: Number(row.id),
    content: row.content,
    score: Math.round(score * 1e4) / 1e4,
    source: { type: row.source_type, id: Number(row.source_id), title: row.title },
  }));
}

const chunkCount = async (db: Db): Promise<number> => Number(((await db('knowledge_chunks').count({ count: '*' }).first()) as { count: unknown }).count);

/**
 * A question asked as a sentence: each word or character pair is looked up on its own; pairs found in few
 * chunks weigh most and their chunks are ranked first, pairs found everywhere (的是, 我们) weigh little.
 */
async function searchLoose(db: Db, terms: QueryTerm[], limit: number): Promise<ChunkHit[]> {
  const matches = await Promise.all(terms.map((term) => matchingIds(db, [term], PROBE)));
  const total = await chunkCount(db);
  // A term with PROBE matches or more occurs somewhere between PROBE and total chunks: the geometric mean of the two.
  const frequency = matches.map((ids) => (ids.length < PROBE ? ids.length : Math.sqrt(PROBE * Math.max(total, PROBE))));
  const weights = frequency.map((df) => Math.log(1 + (total - df + 0.5) / (df + 0.5)));
  const candidates = new Set<number>();
  for (const k of terms.map((_, k) => k).sort((a, b) => frequency[a]! - frequency[b]!)) {
    for (const id of matches[k]!) if (candidates.size < CANDIDATES) candidates.add(id);
  }
  return rank(await loadChunks(db, [...candidates]), terms, weights, limit, false).filter((hit) => hit.score > 0);
}

/**
 * Ranked chunks of approved sources matching q (Chinese text included); [] for an empty query. Chunks containing
 * every term come first; when none does, chunks sharing the query's rarer words or character pairs are ranked.
 */
/**
 * Searches are read far more often than chunks change (the coach searches on every message, and people repeat
 * queries): answers are kept until replaceChunks writes, or 2 s (several servers on one PostgreSQL).
 */
const searchCache = perDatabase<ChunkHit[]>({ name: 'knowledge-search', maxBytes: 2 * 1024 * 1024, ttlMs: 2_000 });

export const searchesChanged = (db: Db): void => clearAfterWrite(searchCache(db), db);

export async function searchChunks(db: Db, q: string, limit = 5): Promise<ChunkHit[]> {
  return (await searchCache(db).get(`${limit}\u0000${q}`, () => searchUncached(db, q, limit)))!;
}

async function searchUncached(db: Db, q: string, limit: number): Promise<ChunkHit[]> {
  const strict = queryTerms(q);
  if (!strict.length) return [];
  const ids = await matchingIds(db, strict, CANDIDATES);
  if (ids.length) return rank(await loadChunks(db, ids), strict, strict.map(() => 1), limit, true);
  const loose = queryTerms(q, { loose: true, max: LOOSE_TERMS });
  return loose.length > 1 ? searchLoose(db, loose, limit) : [];
}
