import Router from '@koa/router';
import type { Deps } from '../context.js';
import { parseBody, parseId, parseQuery } from '../http/validate.js';
import { ListQuery } from '../products/products.schema.js';
import { categoriesJson } from '../products/products.repository.js';
import { CourseCreate, CourseUpdate } from './courses.schema.js';
import { courseDetailJson, createCourse, deactivateCourse, listCoursesJson, updateCourse } from './courses.service.js';

export function courseRoutes({ db, requireUser, requireAdmin }: Deps): Router {
  const router = new Router({ prefix: '/courses' });

  router.get('/', requireUser, async (ctx) => {
    ctx.body = await listCoursesJson(db, parseQuery(ctx, ListQuery));
  });
  router.get('/categories', requireUser, async (ctx) => {
    ctx.body = await categoriesJson(db, 'courses');
  });
  router.get('/:id', requireUser, async (ctx) => {
    ctx.body = await courseDetailJson(db, parseId(ctx.params.id, 'Course'));
  });
  router.post('/', ...requireAdmin, async (ctx) => {
    const course = await createCourse(db, parseBody(ctx, CourseCreate));
    ctx.status = 201;
    ctx.body = course;
  });
  router.put('/:id', ...requireAdmin, async (ctx) => {
    const id = parseId(ctx.params.id, 'Course');
    ctx.body = await updateCourse(db, id, parseBody(ctx, CourseUpdate));
  });
  router.delete('/:id', ...requireAdmin, async (ctx) => {
    ctx.body = await deactivateCourse(db, parseId(ctx.params.id, 'Course'));
  });

  return router;
}
