// Where cards come from: the two hook points of other domains. Exam submits (formal, self-test, mistake-book retry):
// a wrong answer is an Again event on the person's card of that question (made if missing); a right answer to a card
// that is due is a review (Good, or Hard long after it was due). Practice items (coaching, compliance): a new card each.
import type { Db } from '../db/knex.js';
import type { GradedSubmit } from '../exams/submit-store.js';
import type { PracticePrompt } from '../../contract/review.js';
import { derivedUuid } from '../sync/branch/state-outbox.js';
import { now } from '../db/time.js';
import { appendLog, practiceCards, questionCards, rebuildCards, type NewLogRow } from './cards.repository.js';
import { gradeOfAnswer, toCard, type CardColumns } from './scheduler.js';
import { schedulerOfSystem } from './review.parameters.js';
import { queueReviewLogUp } from './review.sync.js';
import { nowDate } from '../clock.js';

/** Appends events, replays their cards and queues the events for the central server. */
export async function recordEvents(db: Db, rows: NewLogRow[]): Promise<string[]> {
  if (!rows.length) return [];
  const appended = await appendLog(db, rows);
  // Queuing reads the events and their cards' identities, not the cards' state: sent beside the rebuild.
  await Promise.all([schedulerOfSystem(db).then((scheduler) => rebuildCards(db, scheduler, rows.map((r) => r.card_id), now())), queueReviewLogUp(db, appended)]);
  return appended;
}

/** Called by storeSubmits for the submits it stored (in its transaction). */
export async function reviewEventsOfSubmits(db: Db, submits: GradedSubmit[]): Promise<void> {
  // The review clock (the submit's own time but for the tests' controllable clock).
  const at = nowDate().toISOString();
  const answers = submits.flatMap(({ session, user, result }) =>
    result.detail.map((d) => ({ session_id: session.id, origin: session.kind, user_id: user.id, question_id: d.question_id, correct: d.is_correct, answer: d.user_answer, at })),
  );
  if (!answers.length) return;
  // Right answers only matter to cards that exist: one lookup for the batch.
  const right = answers.filter((a) => a.correct);
  const existing = right.length
    ? ((await db('review_cards').whereIn('user_id', [...new Set(right.map((a) => a.user_id))]).whereIn('question_id', [...new Set(right.map((a) => a.question_id))])
        .select('id', 'user_id', 'question_id', 'due', 'stability', 'difficulty', 'elapsed_days', 'scheduled_days', 'learning_steps', 'reps', 'lapses', 'state', 'last_review')) as (CardColumns & { id: number; user_id: number; question_id: number })[])
    : [];
  const dueCards = new Map(existing.map((c) => [`${Number(c.user_id)}/${Number(c.question_id)}`, c]));
  const counted = answers.filter((a) => !a.correct || (dueCards.get(`${a.user_id}/${a.question_id}`)?.due ?? '\uffff') <= a.at);
  if (!counted.length) return;
  const cards = await questionCards(db, counted.map((a) => ({ user_id: a.user_id, question_id: a.question_id, at: a.at })));
  const stamp = now();
  const rows = counted.flatMap((a): NewLogRow[] => {
    const card = cards.get(`${a.user_id}/${a.question_id}`);
    if (!card) return [];
    const known = dueCards.get(`${a.user_id}/${a.question_id}`);
    const rating = known ? gradeOfAnswer(a.correct, toCard(known), new Date(a.at)) : 1;
    return [{
      // The same on every machine that stores this submit: the central server re-grading a pushed record adds nothing.
      gid: derivedUuid(`review-event/${a.session_id}/${card.question_gid}`),
      card_id: card.id, user_id: a.user_id, rating, reviewed_at: a.at, origin: a.origin, correct: a.correct, answer: JSON.stringify(a.answer), from_central: false, created_at: stamp,
    }];
  });
  await recordEvents(db, rows);
}

/** The practice item rows as insertReviewItems stores them (coaching_review_items). */
interface PracticeItemRow {
  id: number | string;
  user_id: number | string;
  body: string;
  created_at: string;
}

/** Called after practice items are inserted (coaching, compliance): a card for each item of these reports that has none. */
export async function practiceItemCards(db: Db, from: { reportIds: number[]; inspectionIds: number[] }): Promise<void> {
  if (!from.reportIds.length && !from.inspectionIds.length) return;
  const items = (await db('coaching_review_items as i')
    .leftJoin('review_cards as c', 'c.practice_item_id', 'i.id')
    .where((q) => q.whereIn('i.report_id', [...new Set(from.reportIds)]).orWhereIn('i.inspection_id', [...new Set(from.inspectionIds)]))
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
