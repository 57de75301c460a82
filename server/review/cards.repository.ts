// Review cards and their log: making cards, appending events once (by gid), rebuilding card state from the log.
import crypto from 'node:crypto';
import type { FSRS } from 'ts-fsrs';
import type { Db } from '../db/knex.js';
import { insertJsonRows, jsonRows, returnedRows, type Columns } from '../db/json-rows.js';
import { derivedUuid } from '../sync/branch/state-outbox.js';
import type { CardKind, PracticePrompt } from '../../contract/review.js';
import { replayAggregated, toColumns, type CardColumns } from './scheduler.js';
import { reviewQueueChanged } from './queue-cache.js';

export interface CardRow extends CardColumns {
  id: number;
  gid: string;
  user_id: number;
  kind: CardKind;
  question_id: number | null;
  practice_item_id: number | null;
  prompt: string | null;
  created_at: string;
  updated_at: string;
}

/** Where a log event comes from. */
export type LogOrigin = 'formal' | 'self_test' | 'retry' | 'review' | 'practice' | 'created';

export interface NewLogRow {
  gid: string;
  card_id: number;
  user_id: number;
  rating: number;
  reviewed_at: string;
  origin: LogOrigin;
  correct: boolean | null;
  answer: string | null;
  from_central: boolean;
  created_at: string;
}

const LOG_COLUMNS: Columns<NewLogRow> = [
  ['gid', 'text'], ['card_id', 'integer'], ['user_id', 'integer'], ['rating', 'integer'], ['reviewed_at', 'text'], ['origin', 'text'],
  ['correct', 'boolean'], ['answer', 'text'], ['from_central', 'boolean'], ['created_at', 'text'],
];

/** The card of a person and a question has the same gid on every machine: two laptops make one card. */
export const questionCardGid = (userGid: string, questionGid: string): string => derivedUuid(`review-card/${userGid}/${questionGid}`);

interface NewCard {
  gid: string;
  user_id: number;
  kind: CardKind;
  question_id: number | null;
  practice_item_id: number | null;
  prompt: string | null;
  due: string;
  created_at: string;
  updated_at: string;
}

const CARD_COLUMNS: Columns<NewCard> = [
  ['gid', 'text'], ['user_id', 'integer'], ['kind', 'text'], ['question_id', 'integer'], ['practice_item_id', 'integer'], ['prompt', 'text'], ['due', 'text'],
  ['created_at', 'text'], ['updated_at', 'text'],
];

/** Inserts the cards that do not exist yet (by gid); an existing card keeps its state. */
export async function insertCards(db: Db, cards: NewCard[]): Promise<void> {
  for (let i = 0; i < cards.length; i += 500) await insertJsonRows(db, 'review_cards', CARD_COLUMNS, cards.slice(i, i + 500), 'ON CONFLICT (gid) DO NOTHING');
}

export type NewCardWithState = NewCard & CardColumns;

const CARD_WITH_STATE_COLUMNS: Columns<NewCardWithState> = [
  ...CARD_COLUMNS.filter(([name]) => name !== 'due'),
  ['due', 'text'], ['stability', 'real'], ['difficulty', 'real'], ['elapsed_days', 'integer'], ['scheduled_days', 'integer'], ['learning_steps', 'integer'],
  ['reps', 'integer'], ['lapses', 'integer'], ['state', 'integer'], ['last_review', 'text'],
];

/** Inserts cards already in the state their first events give; returns the ids, by gid, of those inserted now (one already there is left as it is). */
export async function insertCardsWithState(db: Db, cards: NewCardWithState[]): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (let i = 0; i < cards.length; i += 500) {
    const rows = await insertJsonRows<NewCardWithState, { id: number; gid: string }>(db, 'review_cards', CARD_WITH_STATE_COLUMNS, cards.slice(i, i + 500), 'ON CONFLICT (gid) DO NOTHING RETURNING id, gid');
    for (const row of rows) ids.set(row.gid, Number(row.id));
  }
  return ids;
}

const PAIR_COLUMNS: Columns<{ user_id: number; question_id: number }> = [['user_id', 'integer'], ['question_id', 'integer']];

/** The question cards of these (user, question) pairs that have one, key `user/question`: one index lookup a pair. */
export async function cardsOfQuestions(db: Db, pairs: { user_id: number; question_id: number }[]): Promise<Map<string, CardRow>> {
  const map = new Map<string, CardRow>();
  const unique = [...new Map(pairs.map((p) => [`${p.user_id}/${p.question_id}`, { user_id: p.user_id, question_id: p.question_id }])).values()];
  for (let i = 0; i < unique.length; i += 1000) {
    const response = await db.raw('SELECT c.* FROM (?) AS p JOIN review_cards c ON c.user_id = p.user_id AND c.question_id = p.question_id', [
      jsonRows(db, PAIR_COLUMNS, unique.slice(i, i + 1000)),
    ]);
    for (const row of returnedRows<CardRow>(db, response)) map.set(`${Number(row.user_id)}/${Number(row.question_id)}`, normalise(row));
  }
  return map;
}

export async function cardsByGid(db: Db, gids: string[]): Promise<Map<string, CardRow>> {
  const map = new Map<string, CardRow>();
  for (let i = 0; i < gids.length; i += 500) {
    for (const row of (await db('review_cards').whereIn('gid', gids.slice(i, i + 500))) as CardRow[]) map.set(row.gid, normalise(row));
  }
  return map;
}

const normalise = (row: CardRow): CardRow => ({
  ...row,
  id: Number(row.id),
  user_id: Number(row.user_id),
  question_id: row.question_id === null ? null : Number(row.question_id),
  practice_item_id: row.practice_item_id === null ? null : Number(row.practice_item_id),
});

export async function findCard(db: Db, id: number): Promise<CardRow | undefined> {
  const row = (await db('review_cards').where({ id }).first()) as CardRow | undefined;
  return row && normalise(row);
}

/** Practice cards for coaching (or compliance) practice items that have none; each is new and due when its item was made. */
export async function practiceCards(db: Db, items: { id: number; user_id: number; prompt: PracticePrompt; created_at: string }[]): Promise<{ id: number; gid: string; user_id: number; created_at: string }[]> {
  if (!items.length) return [];
  const cards = items.map((item): NewCard => ({
    gid: crypto.randomUUID(), user_id: item.user_id, kind: 'practice', question_id: null, practice_item_id: item.id, prompt: JSON.stringify(item.prompt),
    due: item.created_at, created_at: item.created_at, updated_at: item.created_at,
  }));
  for (let i = 0; i < cards.length; i += 500) await insertJsonRows(db, 'review_cards', CARD_COLUMNS, cards.slice(i, i + 500), 'ON CONFLICT DO NOTHING');
  const rows = (await db('review_cards').whereIn('practice_item_id', items.map((i) => i.id)).whereIn('user_id', [...new Set(items.map((i) => i.user_id))]).select('id', 'gid', 'user_id', 'created_at')) as { id: number; gid: string; user_id: number; created_at: string }[];
  return rows.map((r) => ({ ...r, id: Number(r.id), user_id: Number(r.user_id) }));
}

/** Appends events; one already there (same gid) is left as it is. Returns the gids appended now. */
export async function appendLog(db: Db, rows: NewLogRow[]): Promise<string[]> {
  const appended: string[] = [];
  for (let i = 0; i < rows.length; i += 500) {
    const inserted = await insertJsonRows<NewLogRow, { gid: string }>(db, 'review_log', LOG_COLUMNS, rows.slice(i, i + 500), 'ON CONFLICT (gid) DO NOTHING RETURNING gid');
    appended.push(...inserted.map((r) => r.gid));
  }
  return appended;
}

export type CardUpdate = CardColumns & { id: number; updated_at: string };

const STATE_COLUMNS = ['due', 'stability', 'difficulty', 'elapsed_days', 'scheduled_days', 'learning_steps', 'reps', 'lapses', 'state', 'last_review'] as const satisfies readonly (keyof CardColumns)[];
const sameValue = (a: unknown, b: unknown): boolean => (a === null || b === null || typeof a === 'string' ? a === b : Number(a) === Number(b));
const UPDATE_COLUMNS: Columns<CardUpdate> = [
  ['id', 'integer'], ['due', 'text'], ['stability', 'real'], ['difficulty', 'real'], ['elapsed_days', 'integer'], ['scheduled_days', 'integer'],
  ['learning_steps', 'integer'], ['reps', 'integer'], ['lapses', 'integer'], ['state', 'integer'], ['last_review', 'text'], ['updated_at', 'text'],
];

/**
 * A chunk of cards with what their rebuild needs: the stored state, when each was made, and its log in replay order
 * (time, then gid) as one string of `<rating><reviewed_at>` events joined by commas, aggregated by the database from
 * the covering index (string_agg with ORDER BY on both SQLite ≥ 3.44 and PostgreSQL). One statement and one row per
 * card: a person's 50,000 events are 5,000 short strings rather than 50,000 rows of objects to build.
 */
function cardsWithLogs(db: Db, ids: number[]): Promise<(CardColumns & { id: number; created_at: string; log: string | null })[]> {
  const log = db('review_log as l')
    .whereRaw('l.card_id = c.id')
    .select(db.raw("string_agg(CAST(l.rating AS text) || l.reviewed_at, ',' ORDER BY l.reviewed_at, l.gid)"));
  return db('review_cards as c')
    .whereIn('c.id', ids)
    .select('c.id', 'c.created_at', ...STATE_COLUMNS.map((column) => `c.${column}`), log.as('log'));
}

/**
 * Rebuilds the cards from their logs (replayed in time order with ts-fsrs) and stores those whose state changed, 250
 * cards a statement (an unchanged card is not written: no write, and no change for the laptops to pull). A card with
 * no review is new and due when it was made (or at its earliest event). The next chunk of cards is read while these
 * are replayed (the database works on its own thread meanwhile); the first chunk is small, so that replaying starts
 * soon.
 */
export async function rebuildCards(db: Db, scheduler: FSRS, cardIds: number[], at: string): Promise<void> {
  const ids = [...new Set(cardIds)];
  const chunks: number[][] = [];
  for (let i = 0, size = FIRST_CHUNK; i < ids.length; i += size, size = CHUNK) chunks.push(ids.slice(i, i + size));
  let next = chunks.length ? cardsWithLogs(db, chunks[0]!) : undefined;
  const writes: Promise<void>[] = [];
  for (let c = 0; c < chunks.length; c++) {
    const cards = await next!;
    next = c + 1 < chunks.length ? cardsWithLogs(db, chunks[c + 1]!) : undefined;
    const updates = cards.flatMap((stored): CardUpdate[] => {
      const state = toColumns(replayAggregated(scheduler, stored.created_at, stored.log));
      return STATE_COLUMNS.every((column) => sameValue(state[column], stored[column])) ? [] : [{ id: Number(stored.id), ...state, updated_at: at }];
    });
    writes.push(updateCards(db, updates));
  }
  await Promise.all(writes);
  if (ids.length) reviewQueueChanged(db);
}

const FIRST_CHUNK = 50;
const CHUNK = 250;

/** Stores these cards' new state, one statement for them all. */
export async function updateCards(db: Db, updates: CardUpdate[]): Promise<void> {
  if (!updates.length) return;
  await db.raw(
    `UPDATE review_cards SET due = v.due, stability = v.stability, difficulty = v.difficulty, elapsed_days = v.elapsed_days, scheduled_days = v.scheduled_days,
       learning_steps = v.learning_steps, reps = v.reps, lapses = v.lapses, state = v.state, last_review = v.last_review, updated_at = v.updated_at
     FROM (?) AS v WHERE review_cards.id = v.id`,
    [jsonRows(db, UPDATE_COLUMNS, updates)],
  );
}
