/** Exams (spec 2.2 Question / Exam paper / Exam record, 2.3.2, 4.5): question bank, papers, sessions, records, certificates, mistake book. */

export type QuestionType = 'single' | 'multiple' | 'true_false';
export type QuestionStatus = 'active' | 'disabled';

export interface QuestionOption {
  key: string;
  text: string;
}

export interface Question {
  id: number;
  domain: string;
  course_id: number | null;
  type: QuestionType;
  stem: string;
  options: QuestionOption[];
  /** Correct option keys; exactly one for `single` and `true_false`. */
  answer: string[];
  explanation: string;
  status: QuestionStatus;
  /** Grows with every edit; records name the versions they were drawn from, so that they can be re-graded (docs/sync.md). */
  version: number;
  created_at: string;
  updated_at: string;
}

export type PaperType = 'formal' | 'self_test';

/**
 * When a candidate sees the answer key (correct answers and explanations) of their attempts: `always` (the spec's
 * behaviour), once they have passed the paper, once they can start it no more (attempts used up or its window
 * closed), or never. Admins always see it.
 */
export const ShowAnswers = ['always', 'after_pass', 'after_last_attempt', 'never'] as const;
export type ShowAnswers = (typeof ShowAnswers)[number];
export type PaperStatus = 'active' | 'inactive';

export interface ExamPaper {
  id: number;
  name: string;
  type: PaperType;
  domain: string;
  question_count: number;
  total_score: number;
  pass_score: number;
  duration_minutes: number;
  randomize: boolean;
  /** Instructions shown on the cover. */
  description: string;
  /** Starts allowed per user; null = unlimited. */
  max_attempts: number | null;
  show_answers: ShowAnswers;
  /** The window in which the paper may be started (ISO timestamps); null = no bound. */
  opens_at: string | null;
  closes_at: string | null;
  /** Each attempt shows the options of single and multiple choice questions in an order of its own. */
  shuffle_options: boolean;
  status: PaperStatus;
  /** When the paper was first active as a formal exam (employees were notified then); null otherwise. */
  published_at: string | null;
  created_at: string;
  updated_at: string;
}

/** Admin list and detail of papers: how many active questions the domain has now. */
/** Who may see, start and be told of a paper besides its assignees; null: every active employee. */
export interface PaperAudience {
  department_ids: number[];
  user_ids: number[];
}

export interface ExamPaperAdmin extends ExamPaper {
  available_questions: number;
  audience: PaperAudience | null;
}

/** The caller's standing on one exam. `in_progress` = an open session that has not passed its deadline. */
export type ExamStanding = 'not_started' | 'in_progress' | 'passed' | 'failed';

/** The caller's open session of a paper (started, not submitted, before deadline + grace): to resume, not start again. */
export interface OpenSession {
  session_id: string;
  deadline_at: string;
  saved_at: string | null;
}

export interface ExamListItem
  extends Pick<ExamPaper, 'id' | 'name' | 'type' | 'domain' | 'question_count' | 'total_score' | 'pass_score' | 'duration_minutes' | 'max_attempts' | 'opens_at' | 'closes_at' | 'show_answers'> {
  status: ExamStanding;
  attempts: number;
  best_score: number | null;
  last_submitted_at: string | null;
  /** False when the attempts are used up or the domain has too few active questions. */
  can_start: boolean;
  /** The latest open session when `status` is `in_progress`, else null. */
  open_session: OpenSession | null;
}

export interface ExamCover extends ExamListItem {
  description: string;
  randomize: boolean;
  shuffle_options: boolean;
  attempts_left: number | null;
  /** Why can_start is false; null when it is true. */
  unavailable_reason: string | null;
  instructions: string[];
}

export type SessionKind = 'formal' | 'self_test' | 'retry';

/** A question as issued to the candidate: never with its answer or explanation. */
export interface IssuedQuestion {
  id: number;
  order: number;
  type: QuestionType;
  stem: string;
  options: QuestionOption[];
}

/** Answer values of rule 2.3.2: option key (single), array of keys (multiple), "true"/"false" (true_false). */
export type AnswerValue = string | string[];
/** Key = question id as a string. */
export type AnswerMap = Record<string, AnswerValue | null>;

export interface StartedExam {
  session_id: string;
  kind: SessionKind;
  paper_id: number | null;
  exam_name: string;
  time_limit_min: number;
  question_count: number;
  total_score: number;
  pass_score: number;
  started_at: string;
  deadline_at: string;
  questions: IssuedQuestion[];
}

/** GET /api/exam/sessions/{id}: the open session again (after a reload), with the answers saved so far. */
export interface SessionState extends StartedExam {
  saved_answers: AnswerMap;
  saved_at: string | null;
  submitted_at: string | null;
  remaining_sec: number;
}

export interface SavedAnswers {
  session_id: string;
  saved: number;
  saved_at: string;
  deadline_at: string;
  remaining_sec: number;
}

export interface AnswerDetail {
  question_id: number;
  is_correct: boolean;
  /** "" (or [] for multiple) when unanswered. */
  user_answer: AnswerValue;
  correct_answer: AnswerValue;
}

/** The graded outcome shared by a submit result and a stored exam record. */
export interface ExamOutcome {
  session_id: string;
  exam_name: string;
  score: number;
  total_score: number;
  pass_score: number;
  passed: boolean;
  correct_count: number;
  wrong_count: number;
  question_count: number;
  time_spent_sec: number;
  submitted_at: string;
  /** True when the submit came after deadline + grace and was graded as at the deadline. */
  late: boolean;
  certificate_id: number | null;
  /** How often the candidate left the exam window (switched away, minimised) during the attempt; not blocking. */
  leave_count: number;
}

export interface SubmitResult extends ExamOutcome {
  kind: SessionKind;
  paper_id: number | null;
  /** Id of the stored exam record (formal exams only). */
  record_id: number | null;
  points_awarded: number;
  detail: AnswerDetail[];
}

/** GET /api/exam/sessions/{id}/explanations: once a session is submitted, each question's explanation as the bank has it now. */
export interface QuestionExplanation {
  question_id: number;
  explanation: string;
}

export interface ExamRecord extends ExamOutcome {
  id: number;
  paper_id: number;
  user_id: number;
  username: string;
  full_name: string;
  department: string;
  started_at: string;
}

/** Review of one answer: the question's current text with the answer as graded. */
export interface RecordAnswerDetail extends AnswerDetail {
  order: number;
  type: QuestionType;
  stem: string;
  options: QuestionOption[];
  /** Omitted while the paper hides its answers from the reader. */
  explanation?: string;
}

export interface ExamRecordDetail extends ExamRecord {
  detail: RecordAnswerDetail[];
}

export interface Certificate {
  id: number;
  certificate_no: string;
  record_id: number;
  paper_id: number;
  user_id: number;
  full_name: string;
  exam_name: string;
  score: number;
  total_score: number;
  pass_score: number;
  issued_at: string;
  pdf_url: string;
}

export interface MistakeEntry {
  id: number;
  question_id: number;
  domain: string;
  type: QuestionType;
  stem: string;
  options: QuestionOption[];
  correct_answer: AnswerValue;
  explanation: string;
  question_status: QuestionStatus;
  wrong_count: number;
  last_wrong_answer: AnswerValue;
  last_wrong_at: string;
  last_source: SessionKind;
  mastered: boolean;
  mastered_at: string | null;
  created_at: string;
}

/** Domain error codes carried in the envelope's `error`. */
export const ExamErrorCode = {
  notEnoughQuestions: 'exam.not_enough_questions',
  attemptsExhausted: 'exam.attempts_exhausted',
  sessionClosed: 'exam.session_closed',
  nothingToRetry: 'exam.nothing_to_retry',
  sessionOpen: 'exam.session_open',
  /** Start refused before the paper's opens_at. */
  notOpenYet: 'exam.not_open_yet',
  /** Start refused after the paper's closes_at. */
  windowClosed: 'exam.window_closed',
  /** Start (or cover) refused: the paper has an audience and the caller is not in it nor assigned it. */
  notInAudience: 'exam.not_in_audience',
} as const;

/** Seconds after the deadline during which a submit still counts as on time (network, clock skew). */
export const SUBMIT_GRACE_SECONDS = 30;
/** Retry sessions: minutes allowed per question. */
export const RETRY_MINUTES_PER_QUESTION = 2;
