import type { Db } from '../db/knex.js';
import type { ExamPaper, ExamPaperAdmin } from '../../contract/exams.js';
import { notFound, validationFailed } from '../http/errors.js';
import { now } from '../db/time.js';
import { examPublished } from '../notifications/messages.js';
import { notify } from '../notifications/notifications.service.js';
import type { PaperFilter, PaperInput } from './exams.schema.js';
import { activeQuestionCounts } from './questions.repository.js';
import { findPaperRow, findPaperRows, insertPaperRow, toPaper, updatePaperRow, type PaperContent, type PaperRow } from './papers.repository.js';
import { audiencesOf, audienceUserIds, checkAudience, replaceAudience } from './audience.js';

async function forAdmins(db: Db, rows: PaperRow[]): Promise<ExamPaperAdmin[]> {
  const papers = rows.map(toPaper);
  const [counts, audiences] = await Promise.all([activeQuestionCounts(db, [...new Set(papers.map((p) => p.domain))]), audiencesOf(db, rows.map((r) => ({ id: Number(r.id), has_audience: r.has_audience })))]);
  return papers.map((p) => ({ ...p, available_questions: counts.get(p.domain) ?? 0, audience: audiences.get(p.id) ?? null }));
}

export async function listPapers(db: Db, filter: PaperFilter): Promise<ExamPaperAdmin[]> {
  return forAdmins(db, await findPaperRows(db, filter));
}

export async function getPaper(db: Db, id: number): Promise<ExamPaperAdmin> {
  const row = await findPaperRow(db, id);
  if (!row) throw notFound('Exam paper');
  return (await forAdmins(db, [row]))[0]!;
}

/**
 * A formal paper is published the first time it is active: every active employee is told once, in the same
 * transaction that makes it visible.
 */
async function publishIfDue(db: Db, row: PaperRow): Promise<void> {
  const paper = toPaper(row);
  if (paper.type !== 'formal' || paper.status !== 'active' || paper.published_at) return;
  await updatePaperRow(db, paper.id, { published_at: now() });
  const audience = ((await audienceUserIds(db, { id: paper.id, has_audience: row.has_audience })) as { id: number }[]).map((u) => Number(u.id));
  await notify.examPublished(db, examPublished(paper), audience);
}

function content(input: PaperInput, base?: ExamPaper): PaperContent {
  const pick = <K extends keyof PaperContent>(key: K, fallback: PaperContent[K]): PaperContent[K] =>
    (input[key] === undefined ? (base ? base[key] : fallback) : input[key]) as PaperContent[K];
  const paper: PaperContent = {
    name: pick('name', ''),
    type: pick('type', 'formal'),
    domain: pick('domain', ''),
    question_count: pick('question_count', 1),
    total_score: pick('total_score', 100),
    pass_score: pick('pass_score', 60),
    duration_minutes: pick('duration_minutes', 60),
    randomize: pick('randomize', false),
    description: pick('description', ''),
    max_attempts: pick('max_attempts', null),
    show_answers: pick('show_answers', 'always'),
    opens_at: pick('opens_at', null),
    closes_at: pick('closes_at', null),
    shuffle_options: pick('shuffle_options', false),
    status: pick('status', 'active'),
  };
  if (paper.pass_score > paper.total_score) {
    throw validationFailed('Invalid pass_score: pass_score must not exceed total_score', [{ path: 'pass_score', message: 'must not exceed total_score' }]);
  }
  if (paper.opens_at && paper.closes_at && paper.opens_at >= paper.closes_at) {
    throw validationFailed('Invalid closes_at: closes_at must be after opens_at', [{ path: 'closes_at', message: 'must be after opens_at' }]);
  }
  return paper;
}

export async function createPaper(db: Db, input: PaperInput): Promise<ExamPaperAdmin> {
  const id = await db.transaction(async (trx) => {
    if (input.audience) await checkAudience(trx, input.audience);
    const paperId = await insertPaperRow(trx, content(input));
    if (input.audience !== undefined) await replaceAudience(trx, paperId, input.audience);
    await publishIfDue(trx, (await findPaperRow(trx, paperId))!);
    return paperId;
  });
  return getPaper(db, id);
}

export async function updatePaper(db: Db, id: number, input: PaperInput): Promise<ExamPaperAdmin> {
  await db.transaction(async (trx) => {
    const row = await findPaperRow(trx, id);
    if (!row) throw notFound('Exam paper');
    if (input.audience) await checkAudience(trx, input.audience);
    await updatePaperRow(trx, id, content(input, toPaper(row)));
    if (input.audience !== undefined) await replaceAudience(trx, id, input.audience);
    await publishIfDue(trx, (await findPaperRow(trx, id))!);
  });
  return getPaper(db, id);
}

/** DELETE: the paper leaves the exam list and cannot be started; its records stay. */
export const deactivatePaper = (db: Db, id: number): Promise<ExamPaperAdmin> => updatePaper(db, id, { status: 'inactive' });
