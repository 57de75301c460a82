// The FSRS side of spaced review, all through ts-fsrs (no scheduling of our own): the scheduler for the target
// retention, the rating a review earns, and a card rebuilt by replaying its log in time order. Pure.
import { createEmptyCard, fsrs, generatorParameters, Rating, State, type Card, type FSRS, type Grade } from 'ts-fsrs';
import { CARD_STATES, type CardState, type SelfRating } from '../../contract/review.js';

const schedulers = new Map<number, FSRS>();

/** ts-fsrs with the default weights, the system's target retention and no fuzz (two machines must agree to the millisecond). */
export function schedulerFor(retention: number): FSRS {
  let scheduler = schedulers.get(retention);
  if (!scheduler) {
    scheduler = fsrs(generatorParameters({ request_retention: retention, enable_fuzz: false }));
    schedulers.set(retention, scheduler);
  }
  return scheduler;
}

export const GRADE_OF: Record<SelfRating, Grade> = { again: Rating.Again, hard: Rating.Hard, good: Rating.Good, easy: Rating.Easy };
export const ratingName = (rating: number): SelfRating => (['again', 'again', 'hard', 'good', 'easy'] as const)[rating] ?? 'again';

/**
 * A right answer counts as Hard rather than Good when it came long after it was due: more than twice the interval the
 * card was scheduled for (at least a day) since its last review. Recall that late took effort.
 */
export const HARD_AFTER_INTERVALS = 2;

export function gradeOfAnswer(correct: boolean, card: Pick<Card, 'last_review' | 'scheduled_days' | 'state'>, at: Date): Grade {
  if (!correct) return Rating.Again;
  if (card.state !== State.Review || !card.last_review) return Rating.Good;
  const elapsedDays = (at.getTime() - card.last_review.getTime()) / 86_400_000;
  return elapsedDays > HARD_AFTER_INTERVALS * Math.max(1, card.scheduled_days) ? Rating.Hard : Rating.Good;
}

/** One event of a card's log as the replay needs it. */
export interface LoggedReview {
  rating: number;
  reviewed_at: string;
}

/**
 * Log order: by time, then by gid (so two machines order simultaneous events alike). The replay sorts by time only and
 * stably: a log read in (reviewed_at, gid) order keeps its gid order among events of the same instant.
 */
const byTime = (a: LoggedReview, b: LoggedReview): number => (a.reviewed_at < b.reviewed_at ? -1 : a.reviewed_at > b.reviewed_at ? 1 : 0);

/**
 * The card its log gives: a new card made at `createdAt`, then every review (rating 1–4) in time order through
 * ts-fsrs `next`, which is what ts-fsrs `reschedule` does for each review of a history (without building the record
 * of every step, a quarter of its time). Rating-0 rows (the card was made) change nothing.
 */
export function replay(scheduler: FSRS, createdAt: string, log: LoggedReview[]): Card {
  let card = createEmptyCard(new Date(createdAt));
  const reviews = log.length > 1 ? [...log].sort(byTime) : log;
  for (const review of reviews) {
    if (review.rating >= Rating.Again && review.rating <= Rating.Easy) card = scheduler.next(card, new Date(review.reviewed_at), review.rating as Grade).card;
  }
  return card;
}

const digits = (s: string, at: number, count: number): number => {
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return NaN;
    value = value * 10 + d;
  }
  return value;
};

/**
 * The instant at `at` in `s` when it has the stored shape (`YYYY-MM-DDTHH:MM:SS.sssZ`, db/time.ts), read digit by
 * digit (a replay reads one per event, without cutting it out of the log string); the same value `new Date` gives.
 * NaN when the punctuation is not that shape's.
 */
function storedInstantAt(s: string, at: number): number {
  if (s.charCodeAt(at + 4) !== 45 || s.charCodeAt(at + 7) !== 45 || s.charCodeAt(at + 10) !== 84 || s.charCodeAt(at + 13) !== 58 || s.charCodeAt(at + 16) !== 58 || s.charCodeAt(at + 19) !== 46 || s.charCodeAt(at + 23) !== 90) return NaN;
  const [year, month, day] = [digits(s, at, 4), digits(s, at + 5, 2), digits(s, at + 8, 2)];
  const [hour, minute, second, ms] = [digits(s, at + 11, 2), digits(s, at + 14, 2), digits(s, at + 17, 2), digits(s, at + 20, 3)];
  // Where Date.UTC and the Date parser could disagree (the ends of months, hour 24, out of range), the parser decides.
  if (year < 1000 || month < 1 || month > 12 || day < 1 || day > 28 || hour > 23 || minute > 59 || second > 59 || Number.isNaN(ms)) return Date.parse(s.slice(at, at + 24));
  return Date.UTC(year, month - 1, day, hour, minute, second, ms);
}

const STORED_EVENT = 25; // the rating digit, then the instant

/**
 * `replay` of a card made at `createdAt` (or at its earliest event, when earlier) from its log as the database
 * aggregates it: `<rating><reviewed_at>` events joined by commas, in log order (time, then gid). The string is read in
 * place, with no event objects; a log in any other shape or order goes through `replay` as before.
 */
export function replayAggregated(scheduler: FSRS, createdAt: string, log: string | null): Card {
  const created = createdAt.length === 24 ? storedInstantAt(createdAt, 0) : NaN;
  const times: number[] = [];
  const ratings: number[] = [];
  for (let start = 0; log && start < log.length; ) {
    const comma = log.indexOf(',', start);
    const end = comma === -1 ? log.length : comma;
    const at = end - start === STORED_EVENT ? storedInstantAt(log, start + 1) : NaN;
    if (Number.isNaN(at) || Number.isNaN(created) || at < (times[times.length - 1] ?? at)) return replayParsed(scheduler, createdAt, log);
    times.push(at);
    ratings.push(log.charCodeAt(start) - 48);
    start = end + 1;
  }
  let card = createEmptyCard(new Date(times.length && times[0]! < created ? times[0]! : created));
  for (let i = 0; i < times.length; i++) {
    const rating = ratings[i]!;
    if (rating >= Rating.Again && rating <= Rating.Easy) card = scheduler.next(card, new Date(times[i]!), rating as Grade).card;
  }
  return card;
}

/** The general path of replayAggregated: the events parsed into objects, the earliest found by comparing strings. */
function replayParsed(scheduler: FSRS, createdAt: string, log: string | null): Card {
  const events: LoggedReview[] = log ? log.split(',').map((e) => ({ rating: e.charCodeAt(0) - 48, reviewed_at: e.slice(1) })) : [];
  const first = events.reduce((min, r) => (r.reviewed_at < min ? r.reviewed_at : min), createdAt);
  return replay(scheduler, first, events);
}

/** A card's stored columns. */
export interface CardColumns {
  due: string;
  stability: number;
  difficulty: number;
  elapsed_days: number;
  scheduled_days: number;
  learning_steps: number;
  reps: number;
  lapses: number;
  state: number;
  last_review: string | null;
}

export const toColumns = (card: Card): CardColumns => ({
  due: card.due.toISOString(),
  stability: card.stability,
  difficulty: card.difficulty,
  elapsed_days: card.elapsed_days,
  scheduled_days: card.scheduled_days,
  learning_steps: card.learning_steps,
  reps: card.reps,
  lapses: card.lapses,
  state: card.state,
  last_review: card.last_review ? card.last_review.toISOString() : null,
});

export const toCard = (c: CardColumns): Card => ({
  due: new Date(c.due),
  stability: Number(c.stability),
  difficulty: Number(c.difficulty),
  elapsed_days: Number(c.elapsed_days),
  scheduled_days: Number(c.scheduled_days),
  learning_steps: Number(c.learning_steps),
  reps: Number(c.reps),
  lapses: Number(c.lapses),
  state: Number(c.state) as State,
  last_review: c.last_review ? new Date(c.last_review) : undefined,
});

/** Predicted recall now (1 for a card never reviewed: nothing to forget yet). */
export const recallOf = (scheduler: FSRS, c: CardColumns, at: Date): number =>
  Number(c.state) === State.New || !c.last_review ? 1 : scheduler.get_retrievability(toCard(c), at, false);

export const cardState = (id: number, c: CardColumns): CardState => ({
  id,
  due: c.due,
  state: CARD_STATES[Number(c.state)] ?? 'new',
  reps: Number(c.reps),
  lapses: Number(c.lapses),
  stability: Number(c.stability),
  difficulty: Number(c.difficulty),
  scheduled_days: Number(c.scheduled_days),
  last_review: c.last_review,
});
