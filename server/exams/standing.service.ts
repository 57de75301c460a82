// What the candidate sees before starting: the exam list with their standing, and the cover of one exam.
import type { Db } from '../db/knex.js';
import type { User } from '../../contract/users.js';
import { SUBMIT_GRACE_SECONDS, type ExamCover, type ExamListItem, type ExamPaper, type ExamStanding, type OpenSession } from '../../contract/exams.js';
import { notFound } from '../http/errors.js';
import { activeQuestionCounts } from './questions.repository.js';
import { findPaperRow, listPaperRows, toPaper } from './papers.repository.js';
import { assertInAudience, papersOpenTo } from './audience.js';
import { openSessionsOf, standingsOf, type PaperStanding } from './sessions.repository.js';

const NO_ATTEMPTS: PaperStanding = { starts: 0, submitted: 0, best_score: null, passed: false, open: false, last_submitted_at: null };

function standingStatus(s: PaperStanding): ExamStanding {
  if (s.passed) return 'passed';
  if (s.open) return 'in_progress';
  return s.submitted ? 'failed' : 'not_started';
}

/** Why the user cannot start now, or null. */
function unavailableReason(paper: ExamPaper, standing: PaperStanding, available: number): string | null {
  if (paper.status !== 'active') return 'This exam is no longer offered';
  if (paper.max_attempts !== null && standing.starts >= paper.max_attempts) return `All ${paper.max_attempts} attempts are used`;
  if (available === 0) return 'The question bank has no active questions for this exam';
  const at = new Date().toISOString();
  if (paper.opens_at && at < paper.opens_at) return `This exam opens at ${paper.opens_at}`;
  if (paper.closes_at && at >= paper.closes_at) return `This exam closed at ${paper.closes_at}`;
  return null;
}

function listItem(paper: ExamPaper, standing: PaperStanding, available: number, open: OpenSession | undefined): ExamListItem {
  return {
    id: paper.id,
    name: paper.name,
    type: paper.type,
    domain: paper.domain,
    question_count: paper.question_count,
    total_score: paper.total_score,
    pass_score: paper.pass_score,
    duration_minutes: paper.duration_minutes,
    max_attempts: paper.max_attempts,
    opens_at: paper.opens_at,
    closes_at: paper.closes_at,
    show_answers: paper.show_answers,
    status: standingStatus(standing),
    attempts: standing.starts,
    best_score: standing.best_score,
    last_submitted_at: standing.last_submitted_at,
    can_start: unavailableReason(paper, standing, available) === null,
    open_session: open ?? null,
  };
}

const openAfter = () => new Date(Date.now() - SUBMIT_GRACE_SECONDS * 1000).toISOString();

/** Active papers, newest first, each with the caller's standing. */
export async function listExams(db: Db, user: User): Promise<ExamListItem[]> {
  const rows = await listPaperRows(db, 'active');
  const visible = await papersOpenTo(db, user, rows.map((r) => ({ id: Number(r.id), has_audience: r.has_audience })));
  const papers = rows.map(toPaper).filter((p) => visible.has(p.id));
  const after = openAfter();
  const [standings, open, counts] = await Promise.all([standingsOf(db, user.id, after), openSessionsOf(db, user.id, after), activeQuestionCounts(db)]);
  return papers.map((p) => listItem(p, standings.get(p.id) ?? NO_ATTEMPTS, counts.get(p.domain) ?? 0, open.get(p.id)));
}

function instructions(paper: ExamPaper, available: number): string[] {
  const drawn = available > 0 ? Math.min(paper.question_count, available) : paper.question_count;
  const lines = [
    `${drawn} questions drawn from the ${paper.domain} question bank${paper.randomize ? ', in random order' : ''}.`,
    `Time limit: ${paper.duration_minutes} minutes from the start. Answers can be saved while you work; a submit more than ${SUBMIT_GRACE_SECONDS} seconds after the limit is graded as at the deadline, with the answers saved by then.`,
    `Score: ${paper.total_score} points shared equally among the questions; pass with ${paper.pass_score}. Multiple choice counts only when exactly the correct options are chosen.`,
    'An exam can be submitted once; submitting again returns the same result.',
    paper.type === 'formal'
      ? 'This is a formal exam: the result is recorded and a pass earns a certificate.'
      : 'This is a self-test: the result is shown to you and not recorded.',
    'Wrong answers go to your mistake book for later practice.',
  ];
  if (paper.max_attempts !== null) lines.push(`Attempts allowed: ${paper.max_attempts}; every start counts as an attempt.`);
  return lines;
}

/** The cover of an active exam; an inactive or unknown paper is a 404 for candidates. */
export async function examCover(db: Db, user: User, paperId: number): Promise<ExamCover> {
  const row = await findPaperRow(db, paperId);
  if (!row || row.status !== 'active') throw notFound('Exam');
  await assertInAudience(db, user, row);
  const paper = toPaper(row);
  const after = openAfter();
  const [standings, open, counts] = await Promise.all([
    standingsOf(db, user.id, after, paperId),
    openSessionsOf(db, user.id, after, paperId),
    activeQuestionCounts(db, [paper.domain]),
  ]);
  const standing = standings.get(paperId) ?? NO_ATTEMPTS;
  const available = counts.get(paper.domain) ?? 0;
  return {
    ...listItem(paper, standing, available, open.get(paperId)),
    description: paper.description,
    randomize: paper.randomize,
    shuffle_options: paper.shuffle_options,
    attempts_left: paper.max_attempts === null ? null : Math.max(0, paper.max_attempts - standing.starts),
    unavailable_reason: unavailableReason(paper, standing, available),
    instructions: instructions(paper, available),
  };
}
