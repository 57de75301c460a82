import { z } from 'zod';
import { nameText } from '../http/plain-text.js';
import { QueryBool } from '../http/validate.js';
import { ListQuery } from '../products/products.schema.js';

const text = (max: number) => z.string().trim().max(max);
const productIds = z.array(z.number().int().positive()).max(1000);

const CourseFields = z.object({
  title: nameText(200).min(1).optional(),
  /** Accepted as an alias of title. */
  name: nameText(200).min(1).optional(),
  category: text(100).optional(),
  status: z.enum(['active', 'inactive']).optional(),
  summary: text(10_000).optional(),
  content: z.string().max(1_000_000).optional(),
  duration_minutes: z.number().int().min(0).max(100_000).nullable().optional(),
  /** The new bound set when given; omitted keeps the current bindings. */
  product_ids: productIds.optional(),
  /** Products to add to, or take off, the bound set (after product_ids when both are given). */
  bind_product_ids: productIds.optional(),
  unbind_product_ids: productIds.optional(),
});

const withTitle = <T extends { title?: string; name?: string }>(v: T): Omit<T, 'name'> & { title?: string } => {
  const { name, ...rest } = v;
  const title = v.title ?? name;
  return title === undefined ? rest : { ...rest, title };
};

export const CourseCreate = CourseFields.refine((v) => !!(v.title ?? v.name), { message: 'title is required', path: ['title'] }).transform(
  (v) => withTitle(v) as Omit<typeof v, 'name'> & { title: string },
);
export const CourseUpdate = CourseFields.transform(withTitle);
export type CourseInput = z.output<typeof CourseUpdate>;

/** Admin only: `include_inactive=true` lists the whole bound set, inactive products too (the course editor's view). */
const BoundSetQuery = z.object({ include_inactive: QueryBool.optional() });
export const CourseDetailQuery = BoundSetQuery;
export const CourseListQuery = ListQuery.extend(BoundSetQuery.shape);
