import type { Db } from '../db/knex.js';
import type { Course, CourseDetail } from '../../contract/catalog.js';
import { notFound, validationFailed } from '../http/errors.js';
import { now } from '../db/time.js';
import { toNullableNumber } from '../db/rows.js';
import { statusToMatch, toProduct, type ProductRow } from '../products/products.repository.js';
import { searchAndPage } from '../db/paginate.js';
import type { ListFilter } from '../products/products.schema.js';
import { approvedMediaFor } from '../media/media.queries.js';
import { cachedCatalogJson, catalogChanged } from '../db/catalog-cache.js';
import type { SerializedJson } from '../http/envelope.js';
import type { CourseInput } from './courses.schema.js';

interface CourseRow {
  id: number;
  title: string;
  category: string;
  status: Course['status'];
  summary: string;
  content: string;
  duration_minutes: number | null;
  created_at: string;
  updated_at: string;
}

const toCourse = (r: CourseRow, productIds: number[]): Course => ({
  id: Number(r.id),
  title: r.title,
  name: r.title,
  category: r.category,
  status: r.status,
  summary: r.summary,
  content: r.content,
  duration_minutes: toNullableNumber(r.duration_minutes),
  product_ids: productIds,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

/**
 * Which bound products a read shows: the active ones (spec 4.4, "inactive products omitted"), or for the admin's
 * editor every bound product.
 */
export type BoundSet = 'active' | 'all';

async function bindings(db: Db, courseIds: number[], bound: BoundSet): Promise<Map<number, number[]>> {
  const map = new Map<number, number[]>();
  if (!courseIds.length) return map;
  const query = db('course_products as cp').whereIn('cp.course_id', courseIds).orderBy(['cp.course_id', 'cp.sort_order']).select('cp.course_id', 'cp.product_id');
  if (bound === 'active') query.join('products as p', 'p.id', 'cp.product_id').where('p.status', 'active');
  const rows: { course_id: number; product_id: number }[] = await query;
  for (const r of rows) {
    const list = map.get(Number(r.course_id)) ?? [];
    list.push(Number(r.product_id));
    map.set(Number(r.course_id), list);
  }
  return map;
}

export async function listCourses(db: Db, filter: ListFilter, bound: BoundSet): Promise<Course[]> {
  const query = db<CourseRow>('courses').orderBy('id');
  const status = statusToMatch(filter.status);
  if (status) query.where('status', status);
  if (filter.category) query.where('category', filter.category);
  const rows = await searchAndPage(query, ['title'], filter);
  const byCourse = await bindings(db, rows.map((r) => Number(r.id)), bound);
  return rows.map((r) => toCourse(r, byCourse.get(Number(r.id)) ?? []));
}

async function getCourse(db: Db, id: number, bound: BoundSet): Promise<Course> {
  const row = await db<CourseRow>('courses').where({ id }).first();
  if (!row) throw notFound('Course');
  return toCourse(row, (await bindings(db, [id], bound)).get(id) ?? []);
}

// The two views of a course are cached under different keys: what an employee is served never holds inactive products.
export const listCoursesJson = (db: Db, filter: ListFilter, bound: BoundSet): Promise<SerializedJson> =>
  cachedCatalogJson(db, `courses:${bound}:${JSON.stringify([filter.category, filter.status, filter.q, filter.page, filter.size])}`, () => listCourses(db, filter, bound));

/** GET /courses/{id}: a 404 is thrown by the load and never cached. */
export const courseDetailJson = (db: Db, id: number, bound: BoundSet): Promise<SerializedJson> =>
  cachedCatalogJson(db, `course:${bound}:${id}`, () => getCourseDetail(db, id, bound));

/** The course with its bound products (active ones only, unless `bound` is all) and approved media. */
export async function getCourseDetail(db: Db, id: number, bound: BoundSet): Promise<CourseDetail> {
  const course = await getCourse(db, id, bound);
  const products: ProductRow[] = course.product_ids.length ? await db<ProductRow>('products').whereIn('id', course.product_ids) : [];
  const order = new Map(course.product_ids.map((pid, i) => [pid, i]));
  products.sort((a, b) => order.get(Number(a.id))! - order.get(Number(b.id))!);
  return { ...course, products: products.map(toProduct), medias: await approvedMediaFor(db, 'course', id) };
}

async function replaceBindings(db: Db, courseId: number, productIds: number[]): Promise<void> {
  const unique = [...new Set(productIds)];
  if (unique.length) {
    const found = (await db('products').whereIn('id', unique).pluck('id')).map(Number);
    const missing = unique.filter((id) => !found.includes(id));
    if (missing.length) throw validationFailed(`Unknown product id(s): ${missing.join(', ')}`, { product_ids: missing });
  }
  await db('course_products').where({ course_id: courseId }).delete();
  if (unique.length) await db('course_products').insert(unique.map((product_id, sort_order) => ({ course_id: courseId, product_id, sort_order })));
}

/** The bound set after this edit, or undefined when the edit leaves bindings alone. */
async function nextBindings(db: Db, courseId: number | undefined, input: CourseInput): Promise<number[] | undefined> {
  const { product_ids: replaced, bind_product_ids: bind = [], unbind_product_ids: unbind = [] } = input;
  if (!replaced && !bind.length && !unbind.length) return undefined;
  const current = replaced ?? (courseId === undefined ? [] : ((await bindings(db, [courseId], 'all')).get(courseId) ?? []));
  const removed = new Set(unbind);
  return [...current, ...bind].filter((id) => !removed.has(id));
}

function toRow(input: CourseInput): Partial<CourseRow> {
  const row: Partial<CourseRow> = {};
  for (const key of ['title', 'category', 'status', 'summary', 'content', 'duration_minutes'] as const) {
    if (input[key] !== undefined) (row as Record<string, unknown>)[key] = input[key];
  }
  return row;
}

export async function createCourse(db: Db, input: CourseInput & { title: string }, bound: BoundSet): Promise<CourseDetail> {
  const id = await db.transaction(async (trx) => {
    const stamp = now();
    const [row] = await trx('courses').insert({ ...toRow(input), created_at: stamp, updated_at: stamp }).returning('id');
    const courseId = Number((row as { id: number }).id);
    const bound = await nextBindings(trx, undefined, input);
    if (bound) await replaceBindings(trx, courseId, bound);
    return courseId;
  });
  catalogChanged(db);
  return getCourseDetail(db, id, bound);
}

export async function updateCourse(db: Db, id: number, input: CourseInput, bound: BoundSet): Promise<CourseDetail> {
  await db.transaction(async (trx) => {
    if (!(await trx('courses').where({ id }).first('id'))) throw notFound('Course');
    await trx('courses').where({ id }).update({ ...toRow(input), updated_at: now() });
    const bound = await nextBindings(trx, id, input);
    if (bound) await replaceBindings(trx, id, bound);
  });
  catalogChanged(db);
  return getCourseDetail(db, id, bound);
}

export async function deactivateCourse(db: Db, id: number): Promise<CourseDetail> {
  return updateCourse(db, id, { status: 'inactive' }, 'active');
}
