// Spaced review (docs/api/review.md): FSRS cards of what each person got wrong or should practise, the daily queue,
// answers, and the admins' figures.
import type { AnswerValue, QuestionOption, QuestionType } from './exams.js';

/** ts-fsrs State: 0 New, 1 Learning, 2 Review, 3 Relearning. */
export type CardStateName = 'new' | 'learning' | 'review' | 'relearning';
export const CARD_STATES: readonly CardStateName[] = ['new', 'learning', 'review', 'relearning'];

export type CardKind = 'question' | 'practice';

/** A self-rating for a practice item (ts-fsrs Again, Hard, Good, Easy). */
export type SelfRating = 'again' | 'hard' | 'good' | 'easy';
export const SELF_RATINGS: readonly SelfRating[] = ['again', 'hard', 'good', 'easy'];

/** What a practice card asks to remember (a coaching or compliance practice item, as it was made). */
export interface PracticePrompt {
  title: string;
  detail: string;
  correct: string;
  explanation: string;
}

export interface QueueItem {
  card_id: number;
  kind: CardKind;
  due: string;
  /** Predicted recall now (0–1). */
  retrievability: number;
  /** A question card: the question without its answer. */
  question: { id: number; type: QuestionType; stem: string; options: QuestionOption[] } | null;
  /**
   * A practice card: what to recall, and what to check the recall against once the trainee reveals it (a call's
   * fact, not an exam key); answered with a self-rating.
   */
  practice: PracticePrompt | null;
}

export interface ReviewQueue {
  /** Every card due now (active questions and practice items). */
  due_count: number;
  /** Reviews already made today, and the daily limit they count against. */
  reviewed_today: number;
  daily_limit: number;
  /** Estimated minutes for the items below (about SECONDS_PER_REVIEW each). */
  estimated_minutes: number;
  /** At most what is left of today's limit: most overdue first, then least likely recalled. */
  items: QueueItem[];
  /** When the next card falls due after these (null: none). */
  next_due: string | null;
}

/** Seconds a review takes on average, for the home page's estimate. */
export const SECONDS_PER_REVIEW = 30;

export interface CardState {
  id: number;
  due: string;
  state: CardStateName;
  reps: number;
  lapses: number;
  stability: number;
  difficulty: number;
  scheduled_days: number;
  last_review: string | null;
}

export interface ReviewAnswerResult {
  /** null for a practice card (self-rated). */
  correct: boolean | null;
  /** Rule 2.3.2 for a question; the practice item's correct statement for a practice card. */
  correct_answer: AnswerValue;
  explanation: string;
  rating: SelfRating;
  card: CardState;
}

export interface CardSummary extends CardState {
  kind: CardKind;
  question_id: number | null;
  title: string;
  domain: string | null;
  retrievability: number;
}

export interface ReviewStats {
  generated_at: string;
  departments: {
    department: string;
    people: number;
    cards: number;
    due: number;
    overdue: number;
    /** Mean predicted recall of the department's cards now. */
    mean_retrievability: number | null;
    weakest_questions: { question_id: number; stem: string; domain: string; cards: number; retrievability: number }[];
    weakest_domains: { domain: string; cards: number; retrievability: number }[];
  }[];
  people: { user_id: number; username: string; full_name: string; department: string; cards: number; due: number; overdue: number; mean_retrievability: number | null; reviews_7d: number }[];
  /** Reviews per local day over the last `days` days, oldest first. */
  reviews_per_day: { date: string; reviews: number; correct: number }[];
}

export const ReviewErrorCode = {
  practiceNeedsRating: 'review.practice_needs_rating',
  questionNeedsAnswer: 'review.question_needs_answer',
  questionDisabled: 'review.question_disabled',
  nothingDue: 'review.nothing_due',
  notDue: 'review.not_due',
} as const;

/** One review-log event as a branch pushes it (entity `review_log`, change id = the event's gid). */
export interface PushedReviewLog {
  gid: string;
  card: { gid: string; user_gid: string; kind: CardKind; question_gid: string | null; prompt: PracticePrompt | null; created_at: string };
  rating: number;
  reviewed_at: string;
  origin: string;
  correct: boolean | null;
  answer: AnswerValue | null;
}
