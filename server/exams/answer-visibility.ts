// Whether a candidate may see the answer key of their attempts at a paper (its show_answers), and the answer key
// taken out of what they are sent while they may not. Stored records always keep it: only what is shown changes.
import type { Db } from '../db/knex.js';
import type { User } from '../../contract/users.js';
import { SUBMIT_GRACE_SECONDS, type AnswerDetail, type ExamPaper } from '../../contract/exams.js';
import { findPaperRow, toPaper } from './papers.repository.js';
import { standingsOf } from './sessions.repository.js';

/** True when `owner` may see the answer key of their attempts at the paper now; admins always may. */
export async function answersVisible(db: Db, viewer: User, ownerId: number, paperId: number | null): Promise<boolean> {
  if (viewer.role === 'admin' || paperId === null) return true;
  const row = await findPaperRow(db, paperId);
  if (!row) return true;
  const paper = toPaper(row);
  if (paper.show_answers === 'always') return true;
  if (paper.show_answers === 'never') return false;
  const at = new Date();
  const standing = (await standingsOf(db, ownerId, new Date(at.getTime() - SUBMIT_GRACE_SECONDS * 1000).toISOString(), paperId)).get(paperId);
  if (paper.show_answers === 'after_pass') return !!standing?.passed;
  return !standing?.open && noAttemptLeft(paper, standing?.starts ?? 0, at);
}

/** after_last_attempt: the attempts are used up, or the window has closed (an open session must be finished first). */
const noAttemptLeft = (paper: ExamPaper, starts: number, at: Date): boolean =>
  (paper.max_attempts !== null && starts >= paper.max_attempts) || (paper.closes_at !== null && at.toISOString() >= paper.closes_at);

/** The details with an empty correct answer of the field's type ([] for multiple choice, "" otherwise) and no explanation. */
export function withoutAnswerKey<T extends AnswerDetail & { explanation?: string }>(detail: T[]): T[] {
  return detail.map(({ explanation: _explanation, ...d }) => ({ ...d, correct_answer: Array.isArray(d.correct_answer) ? [] : '' }) as T);
}

/** Papers among `paperIds` that hide their answer key from candidates at some point (their misses stay out of the mistake book, which shows it). */
export async function papersHidingAnswers(db: Db, paperIds: number[]): Promise<Set<number>> {
  const ids = [...new Set(paperIds)];
  if (!ids.length) return new Set();
  const rows = (await db('exam_papers').whereIn('id', ids).whereNot('show_answers', 'always').select('id')) as { id: number }[];
  return new Set(rows.map((r) => Number(r.id)));
}
