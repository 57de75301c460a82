import Router from '@koa/router';
import type { Context } from 'koa';
import type { Deps } from '../context.js';
import { currentUser } from '../auth/guards.js';
import { forbidden } from '../http/errors.js';
import { parseBody, parseId, parseQuery } from '../http/validate.js';
import { categoriesJson } from '../products/products.repository.js';
import { CourseCreate, CourseDetailQuery, CourseListQuery, CourseUpdate } from './courses.schema.js';
import { courseDetailJson, createCourse, deactivateCourse, listCoursesJson, updateCourse, type BoundSet } from './courses.service.js';
import { documented } from '../http/openapi.js';

/** `include_inactive=true` (admins only: 403 for anyone else) shows every bound product; by default, active ones only. */
function boundSet(ctx: Context, includeInactive: boolean | undefined): BoundSet {
  if (!includeInactive) return 'active';
  if (currentUser(ctx).role !== 'admin') throw forbidden('include_inactive is for administrators');
  return 'all';
}

export function courseRoutes({ db, requireUser, requireAdmin }: Deps): Router {
  const router = new Router({ prefix: '/courses' });

  router.get('/', requireUser, documented({ query: CourseListQuery }), async (ctx) => {
    const { include_inactive, ...filter } = parseQuery(ctx, CourseListQuery);
    ctx.body = await listCoursesJson(db, filter, boundSet(ctx, include_inactive));
  });
  router.get('/categories', requireUser, async (ctx) => {
    ctx.body = await categoriesJson(db, 'courses');
  });
  router.get('/:id', requireUser, documented({ query: CourseDetailQuery }), async (ctx) => {
    const id = parseId(ctx.params.id, 'Course');
    ctx.body = await courseDetailJson(db, id, boundSet(ctx, parseQuery(ctx, CourseDetailQuery).include_inactive));
  });
  router.post('/', ...requireAdmin, documented({ body: CourseCreate, query: CourseDetailQuery }), async (ctx) => {
    const course = await createCourse(db, parseBody(ctx, CourseCreate), boundSet(ctx, parseQuery(ctx, CourseDetailQuery).include_inactive));
    ctx.status = 201;
    ctx.body = course;
  });
  router.put('/:id', ...requireAdmin, documented({ body: CourseUpdate, query: CourseDetailQuery }), async (ctx) => {
    const id = parseId(ctx.params.id, 'Course');
    ctx.body = await updateCourse(db, id, parseBody(ctx, CourseUpdate), boundSet(ctx, parseQuery(ctx, CourseDetailQuery).include_inactive));
  });
  router.delete('/:id', ...requireAdmin, async (ctx) => {
    ctx.body = await deactivateCourse(db, parseId(ctx.params.id, 'Course'));
  });

  return router;
}
