// Spaced review for a person: the daily queue, answering a card, a self-test paper from the due cards; and the
// admins' figures. Cards are the person's own: anyone else's is 404.
import crypto from 'node:crypto';
import type { Db } from '../db/knex.js';
import type { User } from '../../contract/users.js';
import type { QuestionOption, QuestionType, StartedExam } from '../../contract/exams.js';
import { RETRY_MINUTES_PER_QUESTION } from '../../contract/exams.js';
import { ReviewErrorCode, SECONDS_PER_REVIEW, type CardSummary, type PracticePrompt, type QueueItem, type ReviewAnswerResult, type ReviewQueue } from '../../contract/review.js';
import { AppError, notFound } from '../http/errors.js';
import { countOf, parseJson } from '../db/rows.js';
import { encodeAnswer, grade, parseAnswers } from '../exams/grading.js';
import { openSession } from '../exams/sessions.service.js';
import type { QuestionRow } from '../exams/questions.repository.js';
import { findCard, type CardRow } from './cards.repository.js';
import { cardState, GRADE_OF, gradeOfAnswer, ratingName, recallOf, toCard, type CardColumns } from './scheduler.js';
import { dailyLimitOf, schedulerOfSystem } from './review.parameters.js';
import { recordEvents } from './review.events.js';
import { nowDate } from '../clock.js';
import { cachedQueue } from './queue-cache.js';
import type { AnswerInput } from './review.schema.js';
import { applyPendingReviewEvents } from './pending-events.js';

/** Events that count against the daily limit: reviews made in a review session. */
export const SESSION_ORIGINS = ['review', 'practice'] as const;

/** Midnight of the server's local day. */
export const startOfDay = (at: Date): Date => {
  const day = new Date(at);
  day.setHours(0, 0, 0, 0);
  return day;
};

/**
 * The person's cards that can be reviewed: practice items (no question), and questions not disabled by an admin.
 * Read from the (user_id, due, question_id) index alone: the few disabled questions are one small subquery.
 */
const reviewable = (db: Db, userId: number) =>
  db('review_cards as c')
    .where('c.user_id', userId)
    .where((w) => w.whereNull('c.question_id').orWhereNotIn('c.question_id', db('questions').whereNot('status', 'active').select('id')));

type QueueRow = CardColumns & { id: number; kind: 'question' | 'practice'; question_id: number | null; prompt: string | null; type: QuestionType | null; stem: string | null; options: string | null };

export async function reviewQueue(db: Db, user: User): Promise<ReviewQueue> {
  await applyPendingReviewEvents(db, user.id);
  const at = nowDate();
  return cachedQueue(db, user.id, at, () => readQueue(db, user, at));
}

async function readQueue(db: Db, user: User, at: Date): Promise<ReviewQueue> {
  const atIso = at.toISOString();
  const [limit, scheduler] = await Promise.all([dailyLimitOf(db), schedulerOfSystem(db)]);
  const [dueRow, todayRow] = await Promise.all([
    reviewable(db, user.id).where('c.due', '<=', atIso).count({ count: '*' }).first(),
    db('review_log').where({ user_id: user.id }).whereIn('origin', SESSION_ORIGINS).where('reviewed_at', '>=', startOfDay(at).toISOString()).where('reviewed_at', '<=', atIso).count({ count: '*' }).first(),
  ]);
  const reviewedToday = countOf(todayRow);
  const room = Math.max(0, limit - reviewedToday);
  // In due order along the index, so the draw stops at the limit.
  const rows = room
    ? ((await reviewable(db, user.id)
        .leftJoin('questions as q', 'q.id', 'c.question_id')
        .where('c.due', '<=', atIso)
        .orderBy('c.due', 'asc')
        .limit(room)
        .select('c.id', 'c.kind', 'c.question_id', 'c.prompt', 'c.due', 'c.stability', 'c.difficulty', 'c.elapsed_days', 'c.scheduled_days', 'c.learning_steps', 'c.reps', 'c.lapses', 'c.state', 'c.last_review', 'q.type', 'q.stem', 'q.options')) as QueueRow[])
    : [];
  const items = rows
    .map((r): QueueItem => {
      const prompt = r.prompt ? parseJson<PracticePrompt | null>(r.prompt, null) : null;
      return {
        card_id: Number(r.id),
        kind: r.kind,
        due: r.due,
        retrievability: recallOf(scheduler, r, at),
        question: r.kind === 'question' ? { id: Number(r.question_id), type: r.type!, stem: r.stem ?? '', options: parseJson<QuestionOption[]>(r.options, []) } : null,
        practice: prompt ? { title: prompt.title, detail: prompt.detail } : null,
      };
    })
    // Most overdue first; among cards due at the same time, the least likely to be recalled.
    .sort((a, b) => (a.due < b.due ? -1 : a.due > b.due ? 1 : a.retrievability - b.retrievability));
  const next = (await reviewable(db, user.id).where('c.due', '>', atIso).min({ next: 'c.due' }).first()) as { next: string | null } | undefined;
  return {
    due_count: countOf(dueRow),
    reviewed_today: reviewedToday,
    daily_limit: limit,
    estimated_minutes: Math.ceil((items.length * SECONDS_PER_REVIEW) / 60),
    items,
    next_due: next?.next ?? null,
  };
}

async function ownCard(db: Db, user: User, cardId: number): Promise<CardRow> {
  // An admin may read anyone's card: everyone's pending events then.
  await applyPendingReviewEvents(db, user.role === 'admin' ? undefined : user.id);
  const card = await findCard(db, cardId);
  if (!card || (card.user_id !== user.id && user.role !== 'admin')) throw notFound('Review card');
  return card;
}

export async function cardSummary(db: Db, user: User, cardId: number): Promise<CardSummary> {
  const card = await ownCard(db, user, cardId);
  const question = card.question_id === null ? undefined : ((await db('questions').where({ id: card.question_id }).first('stem', 'domain')) as { stem: string; domain: string } | undefined);
  const prompt = card.prompt ? parseJson<PracticePrompt | null>(card.prompt, null) : null;
  return {
    ...cardState(card.id, card),
    kind: card.kind,
    question_id: card.question_id,
    title: question?.stem ?? prompt?.title ?? '',
    domain: question?.domain ?? null,
    retrievability: recallOf(await schedulerOfSystem(db), card, nowDate()),
  };
}

/**
 * One review: a question card is graded (Again when wrong, Good when right, Hard when right long after it was due),
 * a practice card takes the trainee's own rating. The event is appended to the log and the card replayed.
 */
export async function answerCard(db: Db, user: User, input: AnswerInput): Promise<ReviewAnswerResult> {
  await applyPendingReviewEvents(db, user.id);
  const card = await findCard(db, input.card_id);
  // Reviews are one's own, admins included: nobody answers for another person.
  if (!card || card.user_id !== user.id) throw notFound('Review card');
  const at = nowDate();
  let result: Omit<ReviewAnswerResult, 'card' | 'rating'>;
  let rating: number;
  if (card.kind === 'question') {
    const question = (await db('questions').where({ id: card.question_id }).first()) as QuestionRow | undefined;
    if (!question || question.status !== 'active') throw new AppError(409, ReviewErrorCode.questionDisabled, 'This question was disabled by an administrator and is no longer reviewed');
    if (input.answer === undefined || input.answer === null) throw new AppError(400, ReviewErrorCode.questionNeedsAnswer, 'A question card is answered with `answer` (rule 2.3.2)');
    const options = parseJson<QuestionOption[]>(question.options, []);
    const keyed = { id: Number(question.id), type: question.type, keys: options.map((o) => o.key), answer: parseJson<string[]>(question.answer, []) };
    const [detail] = grade([keyed], parseAnswers([keyed], { [String(keyed.id)]: input.answer })).detail;
    rating = gradeOfAnswer(detail!.is_correct, toCard(card), at);
    result = { correct: detail!.is_correct, correct_answer: encodeAnswer(question.type, keyed.keys, keyed.answer), explanation: question.explanation ?? '' };
    await db.transaction((trx) =>
      recordEvents(trx, [{ gid: crypto.randomUUID(), card_id: card.id, user_id: user.id, rating, reviewed_at: at.toISOString(), origin: 'review', correct: detail!.is_correct, answer: JSON.stringify(detail!.user_answer), from_central: false, created_at: at.toISOString() }]),
    );
  } else {
    if (!input.rating) throw new AppError(400, ReviewErrorCode.practiceNeedsRating, 'A practice card is answered with a self-rating: again, hard, good or easy');
    rating = GRADE_OF[input.rating as keyof typeof GRADE_OF];
    const prompt = parseJson<PracticePrompt | null>(card.prompt, null);
    result = { correct: null, correct_answer: prompt?.correct ?? '', explanation: prompt?.explanation ?? '' };
    await db.transaction((trx) =>
      recordEvents(trx, [{ gid: crypto.randomUUID(), card_id: card.id, user_id: user.id, rating, reviewed_at: at.toISOString(), origin: 'practice', correct: null, answer: null, from_central: false, created_at: at.toISOString() }]),
    );
  }
  const stored = (await findCard(db, card.id))!;
  return { ...result, rating: ratingName(rating), card: cardState(stored.id, stored) };
}

/** "按遗忘曲线组卷": a self-test of the person's due question cards (most overdue first), graded like any self-test. */
export async function startDueSelfTest(db: Db, user: User, limit?: number): Promise<StartedExam> {
  await applyPendingReviewEvents(db, user.id);
  const at = nowDate().toISOString();
  const count = limit ?? (await dailyLimitOf(db));
  const ids = (await reviewable(db, user.id).whereNotNull('c.question_id').where('c.due', '<=', at).orderBy('c.due', 'asc').limit(count).pluck('c.question_id')).map(Number);
  if (!ids.length) throw new AppError(409, ReviewErrorCode.nothingDue, 'No question is due for review');
  const byId = new Map(((await db<QuestionRow>('questions').whereIn('id', ids)) as QuestionRow[]).map((q) => [Number(q.id), q]));
  const rows = ids.map((id) => byId.get(id)).filter((q): q is QuestionRow => !!q);
  return openSession(
    db,
    { kind: 'self_test', paper_id: null, user_id: user.id, exam_name: 'Spaced review self-test', total_score: 100, pass_score: 60, duration_minutes: rows.length * RETRY_MINUTES_PER_QUESTION },
    rows,
  );
}
