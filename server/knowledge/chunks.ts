// Knowledge chunks: the shared store that knowledge sources and approved media are ingested into.
// Owned by the knowledge domain; the media domain calls replaceChunks after extracting a file's text.
import type { Knex } from 'knex';
import { searchesChanged } from './search.js';
import { isPostgres, type Db } from '../db/knex.js';
import { now } from '../db/time.js';
import { indexTerms } from './terms.js';
import { ftsDocument, tsvectorLiteral } from './fts.js';

export interface ChunkOrigin {
  source_type: 'knowledge' | 'media';
  source_id: number;
  /** Shown with search results (the source's title or the media filename). */
  title: string;
}

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(?:```|~~~)/;

interface Section {
  /** The heading trail down to this section (e.g. 公司介绍 > 发展历程). */
  trail: string;
  body: string;
}

/** Cuts markdown or plain text at its headings (not inside code fences); a heading's ancestors form the trail. */
function sections(text: string): Section[] {
  const found: Section[] = [];
  const headings: string[] = [];
  let body: string[] = [];
  let inFence = false;
  const flush = () => {
    const content = body.join('\n').replace(/\n{3,}/g, '\n\n').trim();
    if (content) found.push({ trail: headings.filter(Boolean).join(' > '), body: content });
    body = [];
  };
  for (const line of text.replace(/\r\n?/g, '\n').replace(/\f/g, '\n\n').split('\n')) {
    if (FENCE.test(line)) inFence = !inFence;
    const heading = inFence ? null : HEADING.exec(line);
    if (!heading) {
      body.push(line);
      continue;
    }
    flush();
    const level = heading[1]!.length;
    headings.length = level;
    headings[level - 1] = heading[2]!.trim();
  }
  flush();
  return found;
}

// Text too long for one chunk is cut at the coarsest boundary that fits: paragraphs, then lines, then sentences
// (Chinese and Western end marks), and only as a last resort in the middle of a sentence.
const LEVELS: { split: (s: string) => string[]; joiner: string }[] = [
  { split: (s) => s.split(/\n{2,}/), joiner: '\n\n' },
  { split: (s) => s.split('\n'), joiner: '\n' },
  { split: (s) => s.split(/(?<=[。！？；!?;]|[.!?][ \t])/), joiner: '' },
];

function hardCut(text: string, budget: number): string[] {
  const pieces: string[] = [];
  for (let start = 0; start < text.length; ) {
    let end = Math.min(start + budget, text.length);
    // Never split a surrogate pair.
    if (end < text.length && end - start > 1 && /[\uDC00-\uDFFF]/.test(text[end]!)) end--;
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces;
}

function pack(text: string, budget: number, level = 0): string[] {
  if (text.length <= budget) return [text];
  const rule = LEVELS[level];
  if (!rule) return hardCut(text, budget);
  const pieces: string[] = [];
  let current = '';
  for (const unit of rule.split(text)) {
    if (unit.length > budget) {
      if (current) pieces.push(current);
      current = '';
      pieces.push(...pack(unit, budget, level + 1));
    } else if (!current) {
      current = unit;
    } else if (current.length + rule.joiner.length + unit.length <= budget) {
      current += rule.joiner + unit;
    } else {
      pieces.push(current);
      current = unit;
    }
  }
  if (current) pieces.push(current);
  return pieces;
}

/** Splits prose into chunks along headings, each at most maxChars long and starting with its heading trail. */
export function splitIntoChunks(text: string, maxChars = 1200): string[] {
  if (!Number.isInteger(maxChars) || maxChars < 40) throw new RangeError('maxChars must be an integer of at least 40');
  const chunks: string[] = [];
  for (const { trail, body } of sections(text)) {
    const header = trail.length > maxChars / 4 ? `${trail.slice(0, Math.floor(maxChars / 4) - 1)}…` : trail;
    const budget = header ? maxChars - header.length - 2 : maxChars;
    for (const piece of pack(body, budget)) {
      const content = piece.trim();
      if (content) chunks.push(header ? `${header}\n\n${content}` : content);
    }
  }
  return chunks;
}

/** Rows per INSERT: well under SQLite's and PostgreSQL's limits on bound parameters. */
const BATCH_ROWS = 500;

interface ChunkRow {
  id?: number;
  source_type: ChunkOrigin['source_type'];
  source_id: number;
  ordinal: number;
  title: string;
  content: string;
  created_at: string;
}

async function deleteChunks(trx: Knex.Transaction, origin: ChunkOrigin): Promise<void> {
  const where = { source_type: origin.source_type, source_id: origin.source_id };
  if (!isPostgres(trx)) {
    await trx('knowledge_chunks_fts').whereIn('rowid', trx('knowledge_chunks').select('id').where(where)).delete();
  }
  await trx('knowledge_chunks').where(where).delete();
}

/**
 * Writes rows in batches, preparing the next batch (tokenising is the costly part) while the database is still
 * writing the previous one: the driver works on its own thread (SQLite) or server (PostgreSQL).
 */
async function writeBatches<T>(rows: ChunkRow[], prepare: (batch: ChunkRow[], offset: number) => T, write: (prepared: T) => Promise<void>): Promise<void> {
  let writing: Promise<void> = Promise.resolve();
  for (let offset = 0; offset < rows.length; offset += BATCH_ROWS) {
    const prepared = prepare(rows.slice(offset, offset + BATCH_ROWS), offset);
    await writing;
    writing = write(prepared);
    // Awaited on the next turn; this only keeps a failure meanwhile from counting as unhandled.
    writing.catch(() => {});
  }
  await writing;
}

/**
 * SQLite keeps the index in the FTS5 table knowledge_chunks_fts keyed by the chunk id, so ids are assigned here:
 * within the transaction on SQLite's single connection nobody else can take them.
 */
async function insertSqlite(trx: Knex.Transaction, rows: ChunkRow[]): Promise<void> {
  const [next] = await trx.raw<{ next: number }[]>(
    "SELECT max(coalesce((SELECT max(id) FROM knowledge_chunks), 0), coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'knowledge_chunks'), 0)) + 1 AS next",
  );
  const first = Number(next!.next);
  await writeBatches(
    rows,
    (batch, offset) => {
      const chunks = batch.map((row, k) => ({ ...row, id: first + offset + k }));
      return { chunks, index: chunks.map((row) => ({ rowid: row.id, terms: ftsDocument(indexTerms(row.content)) })) };
    },
    async ({ chunks, index }) => {
      await trx('knowledge_chunks').insert(chunks);
      await trx('knowledge_chunks_fts').insert(index);
    },
  );
}

/** PostgreSQL keeps the tsvector in the row itself (GIN-indexed column tsv). */
async function insertPostgres(trx: Knex.Transaction, rows: ChunkRow[]): Promise<void> {
  await writeBatches(
    rows,
    (batch) => batch.map((row) => ({ ...row, tsv: trx.raw('CAST(? AS tsvector)', [tsvectorLiteral(indexTerms(row.content))]) })),
    async (batch) => {
      await trx('knowledge_chunks').insert(batch);
    },
  );
}

/** Replaces every chunk of that origin with the given ones (in one statement batch on the given transaction) and indexes them for search; returns the count. */
export async function replaceChunks(db: Db, origin: ChunkOrigin, chunks: string[]): Promise<number> {
  const run = async (trx: Knex.Transaction) => {
    await deleteChunks(trx, origin);
    const created_at = now();
    const rows = chunks.filter((content) => content.trim()).map((content, ordinal): ChunkRow => ({ ...origin, ordinal, content, created_at }));
    await (isPostgres(trx) ? insertPostgres(trx, rows) : insertSqlite(trx, rows));
    return rows.length;
  };
  const count = await (db.isTransaction ? run(db as Knex.Transaction) : db.transaction(run));
  searchesChanged(db);
  return count;
}
