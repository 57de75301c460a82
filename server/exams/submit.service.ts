// Submitting a session: read, validate and grade it, and store the result exactly once; batched by submit-pipeline.ts.
import type { Db } from '../db/knex.js';
import type { User } from '../../contract/users.js';
import { SUBMIT_GRACE_SECONDS, type SubmitResult } from '../../contract/exams.js';
import { AppError, notFound } from '../http/errors.js';
import { pointsOfRecord } from '../learning/points.service.js';
import { detailAsShown, grade, parseAnswers, scoreOf, type Selection } from './grading.js';
import { answersVisible, withoutAnswerKey } from './answer-visibility.js';
import { findSessions, type ExamSession } from './sessions.repository.js';
import { storeSubmits, type GradedSubmit } from './submit-store.js';
import { findRecord, type StoredRecord } from './records.repository.js';
import type { SubmitPipeline } from './submit-pipeline.js';
import type { SubmitInput } from './exams.schema.js';

/**
 * Grades the session as of `at`. Past deadline + grace, the submitted answers are ignored: the session is graded as
 * submitted at the deadline, with the answers saved (autosave) before it and the whole time limit as time spent.
 */
function evaluate(session: ExamSession, selection: Selection, input: Pick<SubmitInput, 'time_spent_sec' | 'leave_count'>, at: Date): SubmitResult {
  const timeSpent = input.time_spent_sec;
  const deadline = Date.parse(session.deadline_at);
  const late = at.getTime() > deadline + SUBMIT_GRACE_SECONDS * 1000;
  const limitSec = session.duration_minutes * 60;
  const elapsedSec = Math.ceil((Math.min(at.getTime(), deadline) - Date.parse(session.started_at)) / 1000);
  const { detail, correct } = grade(session.questions, late ? parseAnswers(session.questions, session.saved_answers) : selection);
  const count = session.questions.length;
  const score = scoreOf(session.total_score, correct, count);
  return {
    session_id: session.id,
    kind: session.kind,
    paper_id: session.paper_id,
    record_id: null,
    exam_name: session.exam_name,
    score,
    total_score: session.total_score,
    pass_score: session.pass_score,
    passed: score >= session.pass_score,
    correct_count: correct,
    wrong_count: count - correct,
    question_count: count,
    time_spent_sec: late ? limitSec : Math.min(timeSpent ?? elapsedSec, limitSec),
    submitted_at: late ? session.deadline_at : at.toISOString(),
    late,
    certificate_id: null,
    leave_count: input.leave_count ?? 0,
    points_awarded: 0,
    detail,
  };
}

function resultFromRecord(record: StoredRecord, points: number): SubmitResult {
  const { id, user_id: _user, username: _username, full_name: _name, department: _department, started_at: _started, ...outcome } = record;
  return { ...outcome, kind: 'formal', record_id: id, points_awarded: points };
}

/** The result of the first submit, for a session that is already consumed. */
async function storedResult(db: Db, sessionId: string): Promise<SubmitResult> {
  const record = await findRecord(db, { session_id: sessionId });
  if (record) return resultFromRecord(record, await pointsOfRecord(db, record.id));
  const row = await db('exam_sessions').where({ id: sessionId }).first('result');
  return JSON.parse(row.result as string) as SubmitResult;
}

export interface SubmitRequest {
  user: User;
  input: SubmitInput;
  /** When the submit arrived: what deadline checks use. */
  at: Date;
}

/** What became of one submit of a batch: stored now (with its session), already consumed (replay the stored result), or refused. */
export type SubmitOutcome = { stored: SubmitResult; session: ExamSession } | { replay: string } | { refused: AppError };

/** Grades one submit against its session as read; nothing is thrown, so one bad submit never fails a batch. */
export function gradeSubmit({ user, input, at }: SubmitRequest, session: ExamSession | undefined): SubmitOutcome | GradedSubmit {
  if (!session || session.user_id !== user.id) return { refused: notFound('Exam session') };
  if (session.submitted_at) return { replay: session.id };
  return { session, user, result: evaluate(session, parseAnswers(session.questions, input.answers), input, at) };
}

/**
 * One transaction for a batch of submits: reads their sessions in one statement, grades them, then stores the
 * graded ones (storeSubmits consumes each session at most once).
 */
export async function submitBatch(db: Db, requests: SubmitRequest[]): Promise<SubmitOutcome[]> {
  const sessions = await findSessions(db, requests.map((r) => r.input.session_id));
  const prepared = requests.map((request, i) => gradeSubmit(request, sessions[i]));
  const graded = prepared.filter((p): p is GradedSubmit => 'result' in p);
  const stored = await storeSubmits(db, graded);
  const outcomes = new Map(graded.map((g, i): [GradedSubmit, SubmitOutcome] => [g, stored[i] ? { stored: stored[i], session: g.session } : { replay: g.session.id }]));
  return prepared.map((p) => ('result' in p ? outcomes.get(p)! : p));
}

/**
 * Submit once: the first submit to consume the session (a conditional update in the batch transaction) stores the
 * record and what follows; every other submit of the session, concurrent or later, gets that stored result.
 */
export async function submitExam(db: Db, pipeline: SubmitPipeline, user: User, input: SubmitInput): Promise<SubmitResult> {
  const outcome = await pipeline.submit({ user, input, at: new Date() });
  if ('refused' in outcome) throw outcome.refused;
  if ('stored' in outcome) return presented(db, user, outcome.session, outcome.stored);
  const [session] = await findSessions(db, [outcome.replay]);
  return presented(db, user, session!, await storedResult(db, outcome.replay));
}

/** The result as its candidate is shown it: in the labels they saw, without the answer key while the paper hides it. */
async function presented(db: Db, user: User, session: ExamSession, result: SubmitResult): Promise<SubmitResult> {
  const detail = detailAsShown(session.questions, result.detail);
  return { ...result, detail: (await answersVisible(db, user, user.id, result.paper_id)) ? detail : withoutAnswerKey(detail) };
}
