// Whether a candidate may see the answer key of their attempts at a paper (its show_answers), and the answer key
// taken out of what they are sent while they may not. Stored records always keep it: only what is shown changes.
import type { Db } from '../db/knex.js';
import type { User } from '../../contract/users.js';
import { SUBMIT_GRACE_SECONDS, type AnswerDetail, type ExamPaper } from '../../contract/exams.js';
import { parseJson } from '../db/rows.js';
import { findPaperRow, toPaper, type PaperRow } from './papers.repository.js';
import { standingsOf, type PaperStanding } from './sessions.repository.js';

/** True when `owner` may see the answer key of their attempts at the paper now; admins always may. */
export async function answersVisible(db: Db, viewer: User, ownerId: number, paperId: number | null): Promise<boolean> {
  if (viewer.role === 'admin' || paperId === null) return true;
  const row = await findPaperRow(db, paperId);
  if (!row) return true;
  const paper = toPaper(row);
  if (paper.show_answers === 'always') return true;
  const at = new Date();
  const standing = paper.show_answers === 'never' ? undefined : (await standingsOf(db, ownerId, openAfter(at), paperId)).get(paperId);
  return keyVisible(paper, standing, at);
}

/** Sessions still open at `at` (before their deadline and its grace) count as open. */
const openAfter = (at: Date): string => new Date(at.getTime() - SUBMIT_GRACE_SECONDS * 1000).toISOString();

/** The paper's show_answers applied to the owner's standing on it. */
function keyVisible(paper: ExamPaper, standing: PaperStanding | undefined, at: Date): boolean {
  switch (paper.show_answers) {
    case 'always':
      return true;
    case 'never':
      return false;
    case 'after_pass':
      return !!standing?.passed;
    default:
      return !standing?.open && noAttemptLeft(paper, standing?.starts ?? 0, at);
  }
}

/** after_last_attempt: the attempts are used up, or the window has closed (an open session must be finished first). */
const noAttemptLeft = (paper: ExamPaper, starts: number, at: Date): boolean =>
  (paper.max_attempts !== null && starts >= paper.max_attempts) || (paper.closes_at !== null && at.toISOString() >= paper.closes_at);

/**
 * The questions whose key is hidden from `owner` now (docs/api/review.md, "Hidden answer keys"): every question of
 * their attempts, open or submitted, at a paper that hides its key from them now. Wherever else such a question
 * comes up for them (a review card, a self-test, the mistake book, another record) its key is not shown either; an
 * admin sees every key. One read of the owner's sessions on papers that hide their key at some point, one of their
 * standings.
 */
export async function hiddenQuestionIds(db: Db, viewer: User, ownerId: number): Promise<Set<number>> {
  const hidden = new Set<number>();
  if (viewer.role === 'admin') return hidden;
  const sessions = (await db('exam_sessions as s')
    .join('exam_papers as p', 'p.id', 's.paper_id')
    .where('s.user_id', ownerId)
    .whereNot('p.show_answers', 'always')
    .select('s.paper_id', 's.questions')) as { paper_id: number; questions: string }[];
  if (!sessions.length) return hidden;
  const paperIds = [...new Set(sessions.map((s) => Number(s.paper_id)))];
  const at = new Date();
  const [papers, standings] = await Promise.all([
    db<PaperRow>('exam_papers').whereIn('id', paperIds) as Promise<PaperRow[]>,
    standingsOf(db, ownerId, openAfter(at)),
  ]);
  const hiding = new Set(papers.map(toPaper).filter((paper) => !keyVisible(paper, standings.get(paper.id), at)).map((paper) => paper.id));
  for (const session of sessions) {
    if (hiding.has(Number(session.paper_id))) for (const id of questionIdsOf(session.questions)) hidden.add(id);
  }
  return hidden;
}

/** The question ids of a session's stored questions (tuples whose first element is the id). */
const questionIdsOf = (json: string): number[] => parseJson<unknown[][]>(json, []).map((tuple) => Number(tuple[0]));

/** One answer detail without its key: the correct answer emptied (of the field's type) and no explanation. */
const keyRemoved = <T extends AnswerDetail & { explanation?: string }>({ explanation: _explanation, ...d }: T): T =>
  ({ ...d, correct_answer: Array.isArray(d.correct_answer) ? [] : '' }) as T;

/** The details with the key of the questions in `hidden` taken out (as withoutAnswerKey does for all). */
export const withoutKeysOf = <T extends AnswerDetail & { explanation?: string }>(detail: T[], hidden: Set<number>): T[] =>
  hidden.size ? detail.map((d) => (hidden.has(d.question_id) ? keyRemoved(d) : d)) : detail;

/** The details with an empty correct answer of the field's type ([] for multiple choice, "" otherwise) and no explanation. */
export function withoutAnswerKey<T extends AnswerDetail & { explanation?: string }>(detail: T[]): T[] {
  return detail.map(keyRemoved);
}

/** Papers among `paperIds` that hide their answer key from candidates at some point (their misses stay out of the mistake book, which shows it). */
export async function papersHidingAnswers(db: Db, paperIds: number[]): Promise<Set<number>> {
  const ids = [...new Set(paperIds)];
  if (!ids.length) return new Set();
  const rows = (await db('exam_papers').whereIn('id', ids).whereNot('show_answers', 'always').select('id')) as { id: number }[];
  return new Set(rows.map((r) => Number(r.id)));
}
