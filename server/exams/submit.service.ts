// Submitting a session: validate and grade, then hand the result to the writer that stores it exactly once.
import type { Db } from '../db/knex.js';
import type { User } from '../../contract/users.js';
import { SUBMIT_GRACE_SECONDS, type SubmitResult } from '../../contract/exams.js';
import { notFound } from '../http/errors.js';
import { pointsOfRecord } from '../learning/points.service.js';
import { grade, parseAnswers, scoreOf, type Selection } from './grading.js';
import { findOwnSession, type ExamSession } from './sessions.repository.js';
import { findRecord, type StoredRecord } from './records.repository.js';
import type { SubmitWriter } from './submit-writer.js';
import type { SubmitInput } from './exams.schema.js';

/**
 * Grades the session as of `at`. Past deadline + grace, the submitted answers are ignored: the session is graded as
 * submitted at the deadline, with the answers saved (autosave) before it and the whole time limit as time spent.
 */
function evaluate(session: ExamSession, selection: Selection, timeSpent: number | undefined, at: Date): SubmitResult {
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
    points_awarded: 0,
    detail,
  };
}

function resultFromRecord(record: StoredRecord, points: number): SubmitResult {
  return {
    session_id: record.session_id,
    kind: 'formal',
    paper_id: record.paper_id,
    record_id: record.id,
    exam_name: record.exam_name,
    score: record.score,
    total_score: record.total_score,
    pass_score: record.pass_score,
    passed: record.passed,
    correct_count: record.correct_count,
    wrong_count: record.wrong_count,
    question_count: record.question_count,
    time_spent_sec: record.time_spent_sec,
    submitted_at: record.submitted_at,
    late: record.late,
    certificate_id: record.certificate_id,
    points_awarded: points,
    detail: record.detail,
  };
}

/** The result of the first submit, for a session that is already consumed. */
async function storedResult(db: Db, sessionId: string): Promise<SubmitResult> {
  const record = await findRecord(db, { session_id: sessionId });
  if (record) return resultFromRecord(record, await pointsOfRecord(db, record.id));
  const row = await db('exam_sessions').where({ id: sessionId }).first('result');
  return JSON.parse(row.result as string) as SubmitResult;
}

/**
 * Submit once: validation and grading happen here; the writer then consumes the session with a conditional update
 * in a transaction and stores what follows. Every other submit of the session, concurrent or later, gets the
 * stored result of the first.
 */
export async function submitExam(db: Db, writer: SubmitWriter, user: User, input: SubmitInput): Promise<SubmitResult> {
  const session = await findOwnSession(db, input.session_id, user.id);
  if (!session) throw notFound('Exam session');
  const selection = parseAnswers(session.questions, input.answers);
  if (session.submitted_at) return storedResult(db, session.id);
  const result = evaluate(session, selection, input.time_spent_sec, new Date());
  return (await writer.write({ session, user, result })) ?? storedResult(db, session.id);
}
