import { z } from 'zod';
import { nameText } from '../http/plain-text.js';
import { Paging } from '../http/validate.js';
import { IsoTimestamp } from '../http/dates.js';

const id = z.number().int().positive().max(2_147_483_647);
const ids = z.array(id).max(10_000);

const Timestamp = IsoTimestamp;

const Item = z.object({ type: z.enum(['exam', 'course', 'roleplay']), id }).strict();
const Target = z.object({ department_ids: ids.optional(), position_ids: ids.optional(), user_ids: ids.optional() }).strict();

export const CreateBody = z
  .object({
    item: Item,
    target: Target,
    due_at: Timestamp,
    starts_at: Timestamp.nullable().optional(),
    title: nameText(200).optional(),
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
  /** The reader's offset from UTC in minutes (+480 for China); without it, the firm's time zone (`timezone`). */
  tz_offset: z.coerce.number().int().min(-720).max(840).optional(),
});
export type ProgressExportFilter = z.output<typeof ProgressExportQuery>;
