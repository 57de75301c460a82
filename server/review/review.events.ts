// Where cards come from: the two hook points of other domains. Exam submits (formal, self-test, mistake-book retry):
// a wrong answer is an Again event on the person's card of that question (made if missing); a right answer to a card
// that is due is a review (Good, or Hard long after it was due). Practice items (coaching, compliance): a new card each.
import type { Db } from '../db/knex.js';
import type { PracticePrompt } from '../../contract/review.js';
import { derivedUuid } from '../sync/branch/state-outbox.js';
import { now } from '../db/time.js';
import { createEmptyCard, Rating } from 'ts-fsrs';
import { appendLog, cardsByGid, cardsOfQuestions, insertCardsWithState, practiceCards, questionCardGid, rebuildCards, updateCards, type CardRow, type CardUpdate, type LogOrigin, type NewCardWithState, type NewLogRow } from './cards.repository.js';
import { gradeOfAnswer, toCard, toColumns, type CardColumns } from './scheduler.js';
import { gidMap } from '../sync/entities.js';
import { reviewQueueChanged } from './queue-cache.js';
import { schedulerOfSystem } from './review.parameters.js';
import { queueReviewLogUp } from './review.sync.js';

/** Appends events, replays their cards and queues the events for the central server. */
export async function recordEvents(db: Db, rows: NewLogRow[]): Promise<string[]> {
  if (!rows.length) return [];
  const appended = await appendLog(db, rows);
  // Queuing reads the events and their cards' identities, not the cards' state: sent beside the rebuild.
  await Promise.all([schedulerOfSystem(db).then((scheduler) => rebuildCards(db, scheduler, rows.map((r) => r.card_id), now())), queueReviewLogUp(db, appended)]);
  return appended;
}

/** A stored submit's answers as spaced review takes them: `at` is the review clock when it was submitted. */
export interface AnsweredSubmit {
  session_id: string;
  /** The paper of a formal submit, else null. */
  paper_id: number | null;
  origin: LogOrigin;
  user_id: number;
  at: string;
  answers: { question_id: number; correct: boolean; answer: unknown }[];
}

/**
 * The review events of stored submits, in their order, and the cards they move (pending-events.ts calls it after the
 * submits' commit, in its own transaction).
 */
export async function reviewEventsOfSubmits(db: Db, submits: AnsweredSubmit[]): Promise<void> {
  const answers = submits.flatMap(({ session_id, origin, user_id, at, answers }) =>
    answers.map((a) => ({ session_id, origin, user_id, question_id: a.question_id, correct: a.correct, answer: a.answer, at })),
  );
  if (!answers.length) return;
  const userIds = answers.map((a) => a.user_id);
  const questionIds = answers.map((a) => a.question_id);
  const [known, userGids, questionGids, scheduler] = await Promise.all([
    cardsOfQuestions(db, answers),
    gidMap(db, 'users', 'id', userIds),
    gidMap(db, 'questions', 'id', questionIds),
    schedulerOfSystem(db),
  ]);
  const keyOf = (a: { user_id: number; question_id: number }) => `${a.user_id}/${a.question_id}`;
  // A wrong answer always counts; a right one only for a card that exists and is due.
  const counted = answers.filter((a) => !a.correct || (known.get(keyOf(a))?.due ?? '\uffff') <= a.at);
  if (!counted.length) return;
  const timesAnswered = new Map<string, number>();
  for (const a of counted) timesAnswered.set(keyOf(a), (timesAnswered.get(keyOf(a)) ?? 0) + 1);
  const stamp = now();

  // Each event's card in the state the event leaves it, computed here when the event is the card's latest (as for a
  // submit it is): ts-fsrs `next` on the stored state is then exactly what replaying the whole log gives. A card
  // answered twice in the batch, or whose log reaches this instant already, is replayed from its log instead.
  const newCards = new Map<string, NewCardWithState>();
  const events: { row: Omit<NewLogRow, 'card_id'>; cardGid: string; next?: CardColumns; existing?: number }[] = [];
  for (const a of counted) {
    const key = keyOf(a);
    const card = known.get(key);
    const questionGid = questionGids.get(String(a.question_id));
    const userGid = userGids.get(String(a.user_id));
    if (typeof questionGid !== 'string' || typeof userGid !== 'string') continue;
    const rating = card ? gradeOfAnswer(a.correct, toCard(card), new Date(a.at)) : Rating.Again;
    const row = {
      // The same on every machine that stores this submit: the central server re-grading a pushed record adds nothing.
      gid: derivedUuid(`review-event/${a.session_id}/${questionGid}`),
      user_id: a.user_id, rating, reviewed_at: a.at, origin: a.origin, correct: a.correct, answer: JSON.stringify(a.answer), from_central: false, created_at: stamp,
    };
    const alone = timesAnswered.get(key) === 1;
    if (card) {
      const latest = card.last_review === null ? card.created_at <= a.at : card.last_review < a.at;
      events.push({ row, cardGid: card.gid, existing: card.id, next: alone && latest ? toColumns(scheduler.next(toCard(card), new Date(a.at), rating).card) : undefined });
    } else {
      const gid = questionCardGid(userGid, questionGid);
      const made = createEmptyCard(new Date(a.at));
      const next = alone ? toColumns(scheduler.next(made, new Date(a.at), rating).card) : undefined;
      if (!newCards.has(gid)) newCards.set(gid, { gid, user_id: a.user_id, kind: 'question', question_id: a.question_id, practice_item_id: null, prompt: null, created_at: a.at, updated_at: a.at, ...(next ?? toColumns(made)) });
      events.push({ row, cardGid: gid, next });
    }
  }
  const inserted = await insertCardsWithState(db, [...newCards.values()]);
  // A card made meanwhile by another transaction (PostgreSQL) is taken as it is, and replayed.
  const missing = [...newCards.keys()].filter((gid) => !inserted.has(gid));
  const raced = missing.length ? await cardsByGid(db, missing) : new Map<string, CardRow>();
  const placed = events.flatMap((e) => {
    const cardId = e.existing ?? inserted.get(e.cardGid) ?? raced.get(e.cardGid)?.id;
    return cardId === undefined ? [] : [{ ...e, cardId }];
  });
  const appended = new Set(await appendLog(db, placed.map((e) => ({ ...e.row, card_id: e.cardId }))));
  const updates: CardUpdate[] = [];
  const replayed: number[] = [];
  for (const e of placed) {
    // A card made here with its state is replayed should its event not be new after all.
    if (!appended.has(e.row.gid)) {
      if (e.existing === undefined && inserted.has(e.cardGid)) replayed.push(e.cardId);
    } else if (!e.next || raced.has(e.cardGid)) replayed.push(e.cardId);
    else if (e.existing !== undefined) updates.push({ id: e.cardId, ...e.next, updated_at: stamp });
  }
  await Promise.all([updateCards(db, updates), rebuildCards(db, scheduler, replayed, stamp), queueReviewLogUp(db, [...appended])]);
  if (updates.length || inserted.size) reviewQueueChanged(db);
}

/** The practice item rows as insertReviewItems stores them (coaching_review_items). */
interface PracticeItemRow {
  id: number | string;
  user_id: number | string;
  body: string;
  created_at: string;
}

/** Called after practice items are inserted (coaching, compliance): a card for each item of these reports that has none. */
export async function practiceItemCards(db: Db, from: { reportIds: number[]; inspectionIds: number[]; roleplaySessionIds?: number[] }): Promise<void> {
  const sessionIds = from.roleplaySessionIds ?? [];
  if (!from.reportIds.length && !from.inspectionIds.length && !sessionIds.length) return;
  const items = (await db('coaching_review_items as i')
    .leftJoin('review_cards as c', 'c.practice_item_id', 'i.id')
    .where((q) => q.whereIn('i.report_id', [...new Set(from.reportIds)]).orWhereIn('i.inspection_id', [...new Set(from.inspectionIds)]).orWhereIn('i.roleplay_session_id', [...new Set(sessionIds)]))
    .whereNull('c.id')
    .select('i.id', 'i.user_id', 'i.body', 'i.created_at')) as PracticeItemRow[];
  if (!items.length) return;
  const prompts = items.map((item) => {
    const body = JSON.parse(item.body) as Record<string, unknown>;
    const text = (key: string) => (typeof body[key] === 'string' ? (body[key] as string) : '');
    const prompt: PracticePrompt = { title: text('label') || text('title'), detail: text('claim') || text('detail') || text('stated'), correct: text('correct'), explanation: text('explanation') };
    return { id: Number(item.id), user_id: Number(item.user_id), prompt, created_at: item.created_at };
  });
  const cards = await practiceCards(db, prompts);
  const stamp = now();
  // A made-card event (rating 0): it changes nothing in the replay, but tells the central server the card exists.
  await recordEvents(
    db,
    cards.map((card) => ({
      gid: derivedUuid(`review-made/${card.gid}`), card_id: card.id, user_id: card.user_id, rating: 0, reviewed_at: card.created_at, origin: 'created',
      correct: null, answer: null, from_central: false, created_at: stamp,
    })),
  );
}
