// Spaced review for a person: the daily queue, answering a card, a self-test paper from the due cards; and the
// admins' figures. Cards are the person's own: anyone else's is 404.
import crypto from 'node:crypto';
import { isPostgres, type Db } from '../db/knex.js';
import type { User } from '../../contract/users.js';
import type { QuestionOption, QuestionType, StartedExam } from '../../contract/exams.js';
import { RETRY_MINUTES_PER_QUESTION } from '../../contract/exams.js';
import { ReviewErrorCode, SECONDS_PER_REVIEW, type CardSummary, type PracticePrompt, type QueueItem, type ReviewAnswerResult, type ReviewQueue } from '../../contract/review.js';
import { AppError, notFound } from '../http/errors.js';
import { countOf, parseJson } from '../db/rows.js';
import { encodeAnswer, grade, parseAnswers } from '../exams/grading.js';
import { openSession } from '../exams/sessions.service.js';
import { hiddenQuestionIds } from '../exams/answer-visibility.js';
import type { QuestionRow } from '../exams/questions.repository.js';
import { findCard, type CardRow, type NewLogRow } from './cards.repository.js';
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
 * The person's cards that can be reviewed: practice items (no question), and questions neither disabled by an admin
 * nor hidden from the person (their key, see hiddenQuestionIds). Read from the (user_id, due, question_id) index
 * alone: the few disabled questions are one small subquery.
 */
const reviewable = (db: Db, userId: number, hidden: Set<number>) =>
  db('review_cards as c')
    .where('c.user_id', userId)
    .where((w) =>
      w.whereNull('c.question_id').orWhere((q) => {
        q.whereNotIn('c.question_id', db('questions').whereNot('status', 'active').select('id'));
        if (hidden.size) q.whereNotIn('c.question_id', [...hidden]);
      }),
    );

/** A card of a question whose key is hidden from the person is not offered to them: as if it did not exist yet. */
const isHidden = (card: CardRow, hidden: Set<number>): boolean => card.question_id !== null && hidden.has(card.question_id);

type QueueRow = CardColumns & { id: number; kind: 'question' | 'practice'; question_id: number | null; prompt: string | null; type: QuestionType | null; stem: string | null; options: string | null };

export async function reviewQueue(db: Db, user: User): Promise<ReviewQueue> {
  await applyPendingReviewEvents(db, user.id);
  const at = nowDate();
  return cachedQueue(db, user.id, at, () => readQueue(db, user, at));
}

async function readQueue(db: Db, user: User, at: Date): Promise<ReviewQueue> {
  const atIso = at.toISOString();
  const [limit, scheduler, hidden] = await Promise.all([dailyLimitOf(db), schedulerOfSystem(db), hiddenQuestionIds(db, user, user.id)]);
  const [dueRow, todayRow] = await Promise.all([
    reviewable(db, user.id, hidden).where('c.due', '<=', atIso).count({ count: '*' }).first(),
    db('review_log').where({ user_id: user.id }).whereIn('origin', SESSION_ORIGINS).where('reviewed_at', '>=', startOfDay(at).toISOString()).where('reviewed_at', '<=', atIso).count({ count: '*' }).first(),
  ]);
  const reviewedToday = countOf(todayRow);
  const room = Math.max(0, limit - reviewedToday);
  // In due order along the index, so the draw stops at the limit.
  const rows = room
    ? ((await reviewable(db, user.id, hidden)
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
        practice: prompt ? { title: prompt.title, detail: prompt.detail, correct: prompt.correct ?? '', explanation: prompt.explanation ?? '' } : null,
      };
    })
    // Most overdue first; among cards due at the same time, the least likely to be recalled.
    .sort((a, b) => (a.due < b.due ? -1 : a.due > b.due ? 1 : a.retrievability - b.retrievability));
  const next = (await reviewable(db, user.id, hidden).where('c.due', '>', atIso).min({ next: 'c.due' }).first()) as { next: string | null } | undefined;
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
  if (!card || (card.user_id !== user.id && user.role !== 'admin') || isHidden(card, await hiddenQuestionIds(db, user, card.user_id))) throw notFound('Review card');
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
 * a practice card takes the trainee's own rating. The event is appended to the log and the card replayed. Only a card
 * that is due can be answered, and once: the event is recorded only if the card is still in the state read here
 * (due, the same reps), checked and written in one transaction, so twenty identical requests at once count once and
 * the others are 409 review.not_due.
 */
export async function answerCard(db: Db, user: User, input: AnswerInput): Promise<ReviewAnswerResult> {
  await applyPendingReviewEvents(db, user.id);
  const card = await findCard(db, input.card_id);
  // Reviews are one's own, admins included: nobody answers for another person.
  if (!card || card.user_id !== user.id || isHidden(card, await hiddenQuestionIds(db, user, user.id))) throw notFound('Review card');
  const at = nowDate();
  let result: Omit<ReviewAnswerResult, 'card' | 'rating'>;
  let event: Pick<NewLogRow, 'rating' | 'origin' | 'correct' | 'answer'>;
  if (card.kind === 'question') {
    const question = (await db('questions').where({ id: card.question_id }).first()) as QuestionRow | undefined;
    if (!question || question.status !== 'active') throw new AppError(409, ReviewErrorCode.questionDisabled, 'This question was disabled by an administrator and is no longer reviewed');
    if (input.answer === undefined || input.answer === null) throw new AppError(400, ReviewErrorCode.questionNeedsAnswer, 'A question card is answered with `answer` (rule 2.3.2)');
    const options = parseJson<QuestionOption[]>(question.options, []);
    const keyed = { id: Number(question.id), type: question.type, keys: options.map((o) => o.key), answer: parseJson<string[]>(question.answer, []) };
    const [detail] = grade([keyed], parseAnswers([keyed], { [String(keyed.id)]: input.answer })).detail;
    result = { correct: detail!.is_correct, correct_answer: encodeAnswer(question.type, keyed.keys, keyed.answer), explanation: question.explanation ?? '' };
    event = { rating: gradeOfAnswer(detail!.is_correct, toCard(card), at), origin: 'review', correct: detail!.is_correct, answer: JSON.stringify(detail!.user_answer) };
  } else {
    if (!input.rating) throw new AppError(400, ReviewErrorCode.practiceNeedsRating, 'A practice card is answered with a self-rating: again, hard, good or easy');
    const prompt = parseJson<PracticePrompt | null>(card.prompt, null);
    result = { correct: null, correct_answer: prompt?.correct ?? '', explanation: prompt?.explanation ?? '' };
    event = { rating: GRADE_OF[input.rating as keyof typeof GRADE_OF], origin: 'practice', correct: null, answer: null };
  }
  const atIso = at.toISOString();
  if (card.due > atIso) throw notDue(card.due);
  const recorded = await db.transaction(async (trx) => {
    // Claims the card as read, without writing it (a write would be one more change for the laptops to pull): a
    // concurrent answer of the same state waits for this row lock (PostgreSQL: FOR UPDATE re-reads the row once the
    // holder commits) or for this transaction (SQLite: one connection), then finds the card moved on.
    const claim = trx('review_cards').where({ id: card.id, reps: card.reps }).where('due', '<=', atIso).first('id');
    if (!(await (isPostgres(trx) ? claim.forUpdate() : claim))) return false;
    await recordEvents(trx, [{ gid: crypto.randomUUID(), card_id: card.id, user_id: user.id, ...event, reviewed_at: atIso, from_central: false, created_at: atIso }]);
    return true;
  });
  const stored = (await findCard(db, card.id))!;
  if (!recorded) throw notDue(stored.due);
  return { ...result, rating: ratingName(event.rating), card: cardState(stored.id, stored) };
}

const notDue = (due: string) => new AppError(409, ReviewErrorCode.notDue, `This card is not due for review until ${due}`, { due });

/** "按遗忘曲线组卷": a self-test of the person's due question cards (most overdue first), graded like any self-test. */
export async function startDueSelfTest(db: Db, user: User, limit?: number): Promise<StartedExam> {
  await applyPendingReviewEvents(db, user.id);
  const at = nowDate().toISOString();
  const count = limit ?? (await dailyLimitOf(db));
  const ids = (await reviewable(db, user.id, await hiddenQuestionIds(db, user, user.id)).whereNotNull('c.question_id').where('c.due', '<=', at).orderBy('c.due', 'asc').limit(count).pluck('c.question_id')).map(Number);
  if (!ids.length) throw new AppError(409, ReviewErrorCode.nothingDue, 'No question is due for review');
  const byId = new Map(((await db<QuestionRow>('questions').whereIn('id', ids)) as QuestionRow[]).map((q) => [Number(q.id), q]));
  const rows = ids.map((id) => byId.get(id)).filter((q): q is QuestionRow => !!q);
  return openSession(
    db,
    { kind: 'self_test', paper_id: null, user_id: user.id, exam_name: 'Spaced review self-test', total_score: 100, pass_score: 60, duration_minutes: rows.length * RETRY_MINUTES_PER_QUESTION },
    rows,
  );
}
