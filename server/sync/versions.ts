// Question and paper versions: what a pushed record is re-graded against (docs/sync.md, "Re-grading").
import type { Db } from '../db/knex.js';
import { now } from '../db/time.js';

/** Keeps the current grading content of the questions as their current version (a version once kept never changes). */
export async function recordQuestionVersions(db: Db, ids: number[]): Promise<void> {
  if (!ids.length) return;
  await db.raw(
    `INSERT INTO question_versions (question_gid, version, type, options, answer, created_at)
     SELECT gid, version, type, options, answer, ? FROM questions WHERE id IN (${ids.map(() => '?').join(', ')})
     ON CONFLICT (question_gid, version) DO NOTHING`,
    [now(), ...ids],
  );
}

/** Keeps the current total and pass mark of the papers as their current version. */
export async function recordPaperVersions(db: Db, ids: number[]): Promise<void> {
  if (!ids.length) return;
  await db.raw(
    `INSERT INTO paper_versions (paper_gid, version, total_score, pass_score, created_at)
     SELECT gid, version, total_score, pass_score, ? FROM exam_papers WHERE id IN (${ids.map(() => '?').join(', ')})
     ON CONFLICT (paper_gid, version) DO NOTHING`,
    [now(), ...ids],
  );
}
