// Per-user course progress: not_started → viewed → completed (never back); the first completion earns points.
import type { Db } from '../db/knex.js';
import type { CourseProgress, CourseProgressStatus, CourseProgressUpdate, ProgressOverview } from '../../contract/learning.js';
import { PointRules } from '../../contract/learning.js';
import { AppError, notFound } from '../http/errors.js';
import { toNumber } from '../db/rows.js';
import { now } from '../db/time.js';
import { awardPoints } from './points.service.js';

interface ProgressRow {
  course_id: number;
  course_title: string;
  status: Exclude<CourseProgressStatus, 'not_started'>;
  viewed_at: string | null;
  completed_at: string | null;
  updated_at: string;
}

const toProgress = (r: ProgressRow): CourseProgress => ({
  course_id: Number(r.course_id),
  course_title: r.course_title,
  status: r.status,
  viewed_at: r.viewed_at,
  completed_at: r.completed_at,
  updated_at: r.updated_at,
});

const progressRows = (db: Db, userId: number) =>
  db('course_progress as p')
    .join('courses as c', 'c.id', 'p.course_id')
    .where('p.user_id', userId)
    .select('p.course_id', 'c.title as course_title', 'p.status', 'p.viewed_at', 'p.completed_at', 'p.updated_at');

async function findCourse(db: Db, courseId: number): Promise<{ id: number; title: string; status: string }> {
  const course = await db('courses').where({ id: courseId }).first('id', 'title', 'status');
  if (!course) throw notFound('Course');
  return course;
}

export async function progressOverview(db: Db, userId: number): Promise<ProgressOverview> {
  const [rows, totalRow] = await Promise.all([
    progressRows(db, userId).orderBy([{ column: 'p.updated_at', order: 'desc' }, { column: 'p.course_id', order: 'asc' }]),
    db('courses').where({ status: 'active' }).count({ count: '*' }).first(),
  ]);
  const items = (rows as ProgressRow[]).map(toProgress);
  const total = toNumber(totalRow?.count);
  const completed = items.filter((i) => i.status === 'completed').length;
  return {
    user_id: userId,
    total_courses: total,
    viewed: items.filter((i) => i.status === 'viewed').length,
    completed,
    percent_complete: total ? Math.min(100, Math.round((completed / total) * 100)) : 0,
    items,
  };
}

export async function courseProgress(db: Db, userId: number, courseId: number): Promise<CourseProgress> {
  const course = await findCourse(db, courseId);
  const row = (await progressRows(db, userId).where('p.course_id', courseId).first()) as ProgressRow | undefined;
  return row ? toProgress(row) : { course_id: Number(course.id), course_title: course.title, status: 'not_started', viewed_at: null, completed_at: null, updated_at: null };
}

/**
 * Marks a course viewed or completed. Completed is final (a later `viewed` keeps it); completing also sets
 * viewed_at when the course was never marked viewed. Only active courses can progress.
 */
export async function updateProgress(db: Db, userId: number, courseId: number, status: 'viewed' | 'completed'): Promise<CourseProgressUpdate> {
  const course = await findCourse(db, courseId);
  if (course.status !== 'active') throw new AppError(409, 'learning.course_inactive', 'This course is no longer offered');
  const points_awarded = await db.transaction(async (trx) => {
    const at = now();
    const current = await trx('course_progress').where({ user_id: userId, course_id: courseId }).first();
    const next = current?.status === 'completed' ? 'completed' : status;
    const fields = { status: next, viewed_at: current?.viewed_at ?? at, completed_at: current?.completed_at ?? (next === 'completed' ? at : null), updated_at: at };
    if (current) await trx('course_progress').where({ user_id: userId, course_id: courseId }).update(fields);
    else await trx('course_progress').insert({ user_id: userId, course_id: courseId, ...fields });
    if (next !== 'completed') return 0;
    return awardPoints(trx, { user_id: userId, source_type: 'course', source_id: courseId, points: PointRules.courseCompleted, reason: `Completed ${course.title}` }, at);
  });
  return { ...(await courseProgress(db, userId, courseId)), points_awarded };
}
