import { z } from 'zod';
import { text, updateSchema } from './fields.js';

const LinkId = z.number().int().positive().nullable().optional();
const noteFields = {
  title: text(200).min(1),
  content: z.string().max(200_000).optional(),
  course_id: LinkId,
  product_id: LinkId,
  task_id: LinkId,
};

export const NoteCreate = z.object(noteFields);
export const NoteUpdate = updateSchema(noteFields);
export type NoteInput = z.output<typeof NoteUpdate>;

const QueryId = z.coerce.number().int().positive().optional();
export const NoteListQuery = z.object({ q: z.string().trim().max(200).optional(), course_id: QueryId, product_id: QueryId, task_id: QueryId });
export type NoteFilter = z.output<typeof NoteListQuery>;
