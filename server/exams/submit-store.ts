// Storing graded submits: consume each session once, then records, certificates, points and mistake-book entries,
// for many submits at a time in multi-row statements (see submit-pipeline.ts).
import type { Db } from '../db/knex.js';
import type { User } from '../../contract/users.js';
import type { SubmitResult } from '../../contract/exams.js';
import { PointRules } from '../../contract/learning.js';
import { awardPointsBatch, type Award } from '../learning/points.service.js';
import { consumeSessions, type ExamSession } from './sessions.repository.js';
import { insertRecords } from './records.repository.js';
import { insertCertificates } from './certificates.repository.js';
import { markMastered, recordMistakes } from './mistakes.repository.js';
import { papersHidingAnswers } from './answer-visibility.js';
import { queueReviewEvents } from '../review/pending-events.js';
import { nowDate } from '../clock.js';

export interface GradedSubmit {
  session: ExamSession;
  user: User;
  result: SubmitResult;
  /** The record's and certificate's global ids when they come from a branch (sync); a missing one is made anew. */
  gids?: { record: string; certificate?: string };
}

/** Records, certificates and points of formal submits; returns their results completed with the new ids. */
async function storeFormal(db: Db, submits: GradedSubmit[]): Promise<Map<GradedSubmit, SubmitResult>> {
  const recordIds = await insertRecords(
    db,
    submits.map(({ session, user, result: r, gids }) => ({
      gid: gids?.record,
      session_id: session.id, paper_id: session.paper_id!, user_id: user.id, exam_name: r.exam_name, score: r.score, total_score: r.total_score,
      pass_score: r.pass_score, passed: r.passed, correct_count: r.correct_count, wrong_count: r.wrong_count, question_count: r.question_count,
      time_spent_sec: r.time_spent_sec, late: r.late, leave_count: r.leave_count, detail: r.detail, started_at: session.started_at, submitted_at: r.submitted_at,
    })),
  );
  const results = new Map(submits.map((s) => [s, { ...s.result, record_id: recordIds.get(s.session.id)! }]));
  const passed = [...results].filter(([, r]) => r.passed);
  const certificates = passed.map(([{ user, gids }, r]) => ({
    gid: gids?.certificate,
    record_id: r.record_id!, user_id: user.id, paper_id: r.paper_id!, full_name: user.full_name || user.username, exam_name: r.exam_name,
    score: r.score, total_score: r.total_score, pass_score: r.pass_score, issued_at: r.submitted_at,
  }));
  const awards = passed.map(([{ user }, r]): Award => ({ user_id: user.id, source_type: 'exam', source_id: r.paper_id!, record_id: r.record_id, points: PointRules.examPassed, reason: `Passed ${r.exam_name}` }));
  const [certificateIds, awarded] = await Promise.all([insertCertificates(db, certificates), awardPointsBatch(db, awards)]);
  const pointsByRecord = new Map(awarded.map((a) => [a.record_id, a.points]));
  for (const [submit, r] of passed) results.set(submit, { ...r, certificate_id: certificateIds.get(r.record_id!)!, points_awarded: pointsByRecord.get(r.record_id) ?? 0 });
  return results;
}

/**
 * Wrong (and unanswered) questions enter the mistake book; in a retry, the ones answered right are mastered. Misses
 * on a paper that hides its answer key do not: the mistake book shows the correct answers.
 */
async function updateMistakeBooks(db: Db, submits: GradedSubmit[]): Promise<void> {
  const hiding = await papersHidingAnswers(db, submits.flatMap(({ session }) => (session.paper_id === null ? [] : [session.paper_id])));
  await recordMistakes(
    db,
    submits.filter(({ session }) => session.paper_id === null || !hiding.has(session.paper_id)).flatMap(({ session, user, result }) =>
      result.detail.filter((d) => !d.is_correct).map((d) => ({ user_id: user.id, question_id: d.question_id, user_answer: d.user_answer, source: session.kind, at: result.submitted_at })),
    ),
  );
  for (const { session, user, result } of submits) {
    if (session.kind === 'retry') await markMastered(db, user.id, result.detail.filter((d) => d.is_correct).map((d) => d.question_id), result.submitted_at);
  }
}

/**
 * Stores a list of graded submits inside the caller's transaction. Each session is consumed at most once, whatever
 * else runs concurrently; a submit whose session was already consumed (by an earlier or a concurrent submit, or
 * earlier in this same list) yields undefined and its caller replays the stored result.
 */
export async function storeSubmits(db: Db, submits: GradedSubmit[]): Promise<(SubmitResult | undefined)[]> {
  const firstOfSession = new Map<string, GradedSubmit>();
  for (const s of submits) if (!firstOfSession.has(s.session.id)) firstOfSession.set(s.session.id, s);
  const consumed = await consumeSessions(
    db,
    [...firstOfSession.values()].map(({ session, result }) => ({
      id: session.id,
      submitted_at: result.submitted_at,
      score: result.score,
      passed: result.passed,
      result: session.kind === 'formal' ? null : JSON.stringify(result),
    })),
  );
  const winners = [...firstOfSession.values()].filter((s) => consumed.has(s.session.id));
  // Only the answers for spaced review here (one row a submit): the cards are derived just after the commit
  // (review/pending-events.ts). Sent beside the records, which they do not need (nor the reverse).
  const at = nowDate().toISOString();
  const answered = winners.map(({ session, user, result }) => ({
    session_id: session.id, paper_id: session.paper_id, origin: session.kind, user_id: user.id, at, answers: result.detail.map((d) => ({ question_id: d.question_id, correct: d.is_correct, answer: d.user_answer })),
  }));
  const [formal] = await Promise.all([storeConsumed(db, winners), queueReviewEvents(db, answered)]);
  const winning = new Set(winners);
  return submits.map((s) => (winning.has(s) ? (formal.get(s) ?? s.result) : undefined));
}

/**
 * Records, certificates, points and mistake books of submits whose sessions are already consumed (stored submitted,
 * as sync stores a branch's pushed sessions); returns the formal ones' results completed with the new ids.
 */
export async function storeConsumed(db: Db, submits: GradedSubmit[]): Promise<Map<GradedSubmit, SubmitResult>> {
  // Statements that do not need each other's results are sent together (here and for certificates and points): the
  // connection runs them one after another all the same, but the transaction waits for the busy event loop to take
  // one result and send the next statement fewer times (+12 % submits/s in alternating bench runs).
  const [formal] = await Promise.all([storeFormal(db, submits.filter((s) => s.session.kind === 'formal')), updateMistakeBooks(db, submits)]);
  return formal;
}
