// What the caller's position asks them to know: its knowledge items, with the caller's progress on the courses.
import type { Db } from '../db/knex.js';
import type { CourseProgressStatus, MyPosition } from '../../contract/learning.js';
import { getPosition } from '../users/positions.service.js';

export async function myPosition(db: Db, positionId: number | null, userId: number): Promise<MyPosition> {
  const position = positionId === null ? null : await getPosition(db, positionId).catch(() => null);
  if (!position) return { position: null, items: [], mandatory_count: 0, mandatory_courses: 0, mandatory_completed: 0 };
  const courseIds = position.knowledge.filter((k) => k.kind === 'course' && k.ref_id !== null).map((k) => k.ref_id!);
  const [courses, progress] = courseIds.length
    ? await Promise.all([
        db('courses').whereIn('id', courseIds).where({ status: 'active' }).pluck('id') as Promise<number[]>,
        db('course_progress').where({ user_id: userId }).whereIn('course_id', courseIds).select('course_id', 'status') as Promise<{ course_id: number; status: CourseProgressStatus }[]>,
      ])
    : [[], []];
  const existing = new Set(courses.map(Number));
  const statusOf = new Map(progress.map((p) => [Number(p.course_id), p.status]));
  const items = position.knowledge.map((k) => ({
    ...k,
    progress: k.kind === 'course' && k.ref_id !== null && existing.has(k.ref_id) ? (statusOf.get(k.ref_id) ?? 'not_started') : null,
  }));
  const mandatory = items.filter((i) => i.is_mandatory);
  return {
    position: { id: position.id, name: position.name, description: position.description },
    items,
    mandatory_count: mandatory.length,
    mandatory_courses: mandatory.filter((i) => i.progress !== null).length,
    mandatory_completed: mandatory.filter((i) => i.progress === 'completed').length,
  };
}
