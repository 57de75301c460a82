// Starting sessions (formal, self-test, mistake retry), reading an open one again, and saving answers on the way.
import type { Db } from '../db/knex.js';
import type { User } from '../../contract/users.js';
import {
  ExamErrorCode,
  RETRY_MINUTES_PER_QUESTION,
  SUBMIT_GRACE_SECONDS,
  type AnswerMap,
  type ExamPaper,
  type IssuedQuestion,
  type QuestionOption,
  type QuestionExplanation,
  type SavedAnswers,
  type SessionState,
  type StartedExam,
} from '../../contract/exams.js';
import { AppError, notFound } from '../http/errors.js';
import { parseAnswers, type KeyedQuestion } from './grading.js';
import { drawQuestionRows, questionsByIds, toQuestion, type QuestionRow } from './questions.repository.js';
import { findPaperRow, toPaper } from './papers.repository.js';
import { countStarts, findOwnSession, insertSession, saveSessionAnswers, type ExamSession, type NewSession } from './sessions.repository.js';
import { unmasteredQuestionIds } from './mistakes.repository.js';
import type { RetryInput } from './exams.schema.js';
import { assertInAudience } from './audience.js';
import { answersVisible, hiddenQuestionIds } from './answer-visibility.js';

const keyed = (q: Pick<ReturnType<typeof toQuestion>, 'id' | 'type' | 'options' | 'answer' | 'version'>): KeyedQuestion => ({
  id: q.id,
  type: q.type,
  keys: q.options.map((o) => o.key),
  answer: q.answer,
  version: q.version,
});

const issued = (q: Pick<ReturnType<typeof toQuestion>, 'id' | 'type' | 'stem' | 'options'>, index: number, shown?: string[]): IssuedQuestion => ({
  id: q.id,
  order: index + 1,
  type: q.type,
  stem: q.stem,
  options: shown ? shownOptions(q.options, shown) : q.options,
});

/** A shuffled question's options: the texts in the shown order, under the question's labels in their own order. */
function shownOptions(options: QuestionOption[], shown: string[]): QuestionOption[] {
  const text = new Map(options.map((o) => [o.key, o.text]));
  return options.map((o, i) => ({ key: o.key, text: text.get(shown[i]!) ?? '' }));
}

/** True/false keeps its order (its labels are its meaning); a question with one option has nothing to shuffle. */
const shufflable = (q: KeyedQuestion): boolean => q.type !== 'true_false' && q.keys.length > 1;

/** A new order of the question's keys for one attempt. */
const withShownOrder = (q: KeyedQuestion): KeyedQuestion => (shufflable(q) ? { ...q, shown: shuffle([...q.keys]) } : q);

/** 409 outside the paper's window; a session started inside it may be submitted until its own deadline. */
function assertWithinWindow(paper: ExamPaper, at: Date): void {
  const stamp = at.toISOString();
  if (paper.opens_at && stamp < paper.opens_at) {
    throw new AppError(409, ExamErrorCode.notOpenYet, `This exam opens at ${paper.opens_at}`, { opens_at: paper.opens_at });
  }
  if (paper.closes_at && stamp >= paper.closes_at) {
    throw new AppError(409, ExamErrorCode.windowClosed, `This exam closed at ${paper.closes_at}`, { closes_at: paper.closes_at });
  }
}

function started(session: ExamSession, questions: IssuedQuestion[]): StartedExam {
  return {
    session_id: session.id,
    kind: session.kind,
    paper_id: session.paper_id,
    exam_name: session.exam_name,
    time_limit_min: session.duration_minutes,
    question_count: session.questions.length,
    total_score: session.total_score,
    pass_score: session.pass_score,
    started_at: session.started_at,
    deadline_at: session.deadline_at,
    questions,
  };
}

const attemptsExhausted = (max: number) => new AppError(409, ExamErrorCode.attemptsExhausted, `All ${max} attempts of this exam are used`);

/** Freezes the answer key of the drawn questions into a new session and issues them without answers. */
export async function openSession(db: Db, fields: Omit<NewSession, 'questions'>, rows: QuestionRow[], shuffleOptions = false, maxAttempts: number | null = null): Promise<StartedExam> {
  const questions = rows.map(toQuestion);
  const keys = questions.map(keyed).map((q) => (shuffleOptions ? withShownOrder(q) : q));
  const session = await insertSession(db, { ...fields, questions: keys }, new Date(), maxAttempts);
  if (!session) throw attemptsExhausted(maxAttempts!);
  return started(session, questions.map((q, i) => issued(q, i, keys[i]!.shown)));
}

export async function startExam(db: Db, user: User, paperId: number): Promise<StartedExam> {
  const row = await findPaperRow(db, paperId);
  if (!row || row.status !== 'active') throw notFound('Exam');
  await assertInAudience(db, user, row);
  const paper = toPaper(row);
  assertWithinWindow(paper, new Date());
  if (paper.max_attempts !== null && (await countStarts(db, user.id, paper.id)) >= paper.max_attempts) throw attemptsExhausted(paper.max_attempts);
  // A bank with fewer active questions than question_count gives them all; grading shares total_score among them.
  const rows = await drawQuestionRows(db, paper.domain, paper.question_count, paper.randomize);
  if (!rows.length) {
    throw new AppError(409, ExamErrorCode.notEnoughQuestions, `The exam cannot start: the question bank has no active questions of domain "${paper.domain}"`, {
      required: paper.question_count,
      available: 0,
    });
  }
  const { id, name, type, total_score, pass_score, duration_minutes } = paper;
  return openSession(db, { kind: type, paper_id: id, user_id: user.id, exam_name: name, total_score, pass_score, duration_minutes }, rows, paper.shuffle_options, paper.max_attempts);
}

const shuffle = <T>(items: T[]): T[] => {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
};

/** A practice session over the caller's unmastered mistakes whose questions are still active, most often missed first. */
export async function startRetry(db: Db, user: User, input: RetryInput): Promise<StartedExam> {
  const ids = await unmasteredQuestionIds(db, user.id, input, await hiddenQuestionIds(db, user, user.id));
  if (!ids.length) throw new AppError(409, ExamErrorCode.nothingToRetry, 'The mistake book has no unmastered questions to practise');
  const rows = shuffle(await db<QuestionRow>('questions').whereIn('id', ids));
  return openSession(
    db,
    { kind: 'retry', paper_id: null, user_id: user.id, exam_name: 'Mistake book retry', total_score: 100, pass_score: 100, duration_minutes: rows.length * RETRY_MINUTES_PER_QUESTION },
    rows,
  );
}

const remainingSec = (session: ExamSession): number => Math.max(0, Math.ceil((Date.parse(session.deadline_at) - Date.now()) / 1000));

export async function getSessionState(db: Db, user: User, sessionId: string): Promise<SessionState> {
  const session = await findOwnSession(db, sessionId, user.id);
  if (!session) throw notFound('Exam session');
  const current = await questionsByIds(db, session.questions.map((q) => q.id));
  const questions = session.questions.map((q, i) => issued({ stem: '', options: [], ...current.get(q.id), id: q.id, type: q.type }, i, q.shown));
  return {
    ...started(session, questions),
    saved_answers: session.saved_answers as AnswerMap,
    saved_at: session.saved_at,
    submitted_at: session.submitted_at,
    remaining_sec: session.submitted_at ? 0 : remainingSec(session),
  };
}

/**
 * The explanations of a submitted session's questions, in the session's order; refused while it is open (they would
 * give the answers away). None while the paper hides its key from the person; an empty one for a question whose key
 * is hidden from them by another paper (a self-test or retry of a question met there since).
 */
export async function sessionExplanations(db: Db, user: User, sessionId: string): Promise<QuestionExplanation[]> {
  const session = await findOwnSession(db, sessionId, user.id);
  if (!session) throw notFound('Exam session');
  if (!session.submitted_at) throw new AppError(409, ExamErrorCode.sessionOpen, 'Explanations are shown once the session is submitted');
  if (!(await answersVisible(db, user, user.id, session.paper_id))) return [];
  const [current, hidden] = await Promise.all([questionsByIds(db, session.questions.map((q) => q.id)), hiddenQuestionIds(db, user, user.id)]);
  return session.questions.map((q) => ({ question_id: q.id, explanation: hidden.has(q.id) ? '' : (current.get(q.id)?.explanation ?? '') }));
}

/** Autosave: replaces the saved answers of an open session; refused once submitted or past deadline + grace. */
export async function saveAnswers(db: Db, user: User, sessionId: string, raw: Record<string, unknown>): Promise<SavedAnswers> {
  const session = await findOwnSession(db, sessionId, user.id);
  if (!session) throw notFound('Exam session');
  const selection = parseAnswers(session.questions, raw);
  const savedAt = new Date();
  if (savedAt.getTime() > Date.parse(session.deadline_at) + SUBMIT_GRACE_SECONDS * 1000) {
    throw new AppError(409, ExamErrorCode.sessionClosed, 'The time limit of this session has passed; answers can no longer be saved');
  }
  if (session.submitted_at || !(await saveSessionAnswers(db, session.id, raw, savedAt.toISOString()))) {
    throw new AppError(409, ExamErrorCode.sessionClosed, 'This session has already been submitted');
  }
  return { session_id: session.id, saved: selection.size, saved_at: savedAt.toISOString(), deadline_at: session.deadline_at, remaining_sec: remainingSec(session) };
}
