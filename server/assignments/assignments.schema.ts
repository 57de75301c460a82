import { z } from 'zod';
import { Paging } from '../http/validate.js';

const id = z.number().int().positive().max(2_147_483_647);
const ids = z.array(id).max(10_000);

/** An ISO timestamp with its zone (`2026-12-05T18:00:00+08:00`), normalised to the stored UTC form. */
const Timestamp = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/, 'must be an ISO timestamp with a time zone')
  .transform((value, ctx) => {
    const time = Date.parse(value);
    if (Number.isNaN(time)) {
      ctx.addIssue({ code: 'custom', message: 'is not a real date' });
      return z.NEVER;
    }
    return new Date(time).toISOString();
  });

const Item = z.object({ type: z.enum(['exam', 'course', 'roleplay']), id }).strict();
const Target = z.object({ department_ids: ids.optional(), position_ids: ids.optional(), user_ids: ids.optional() }).strict();

export const CreateBody = z
  .object({
    item: Item,
    target: Target,
    due_at: Timestamp,
    starts_at: Timestamp.nullable().optional(),
    title: z.string().trim().max(200).optional(),
  })
  .strict();
export type CreateInput = z.output<typeof CreateBody>;

export const UpdateBody = CreateBody.partial().strict();
export type UpdateInput = z.output<typeof UpdateBody>;

export const ListQuery = z.object({
  q: z.string().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).optional(),
  size: z.coerce.number().int().min(1).max(500).optional(),
});

const ProgressFilter = z.object({
  status: z.enum(['done', 'pending', 'overdue']).optional(),
  department: z.string().trim().max(200).optional(),
  q: z.string().trim().max(200).optional(),
});

export const ProgressQuery = Paging.merge(ProgressFilter);

export const ProgressExportQuery = ProgressFilter.extend({
  lang: z.enum(['zh-CN', 'en']).default('zh-CN'),
  /** The reader's offset from UTC in minutes (+480 for China), for the times in the sheet. */
  tz_offset: z.coerce.number().int().min(-720).max(840).default(0),
});
export type ProgressExportFilter = z.output<typeof ProgressExportQuery>;
