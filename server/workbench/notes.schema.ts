import { z } from 'zod';
import { nameText } from '../http/plain-text.js';
import { text, updateSchema } from './fields.js';
import { SearchPaging } from '../http/validate.js';

const LinkId = z.number().int().positive().nullable().optional();
const noteFields = {
  title: nameText(200).min(1),
  content: z.string().max(200_000).optional(),
  course_id: LinkId,
  product_id: LinkId,
  task_id: LinkId,
};

export const NoteCreate = z.object(noteFields);
export const NoteUpdate = updateSchema(noteFields);
export type NoteInput = z.output<typeof NoteUpdate>;

const QueryId = z.coerce.number().int().positive().optional();
/** `q` searches title and content; `page` + `size` page the list (all when neither is given). */
export const NoteListQuery = SearchPaging.extend({ course_id: QueryId, product_id: QueryId, task_id: QueryId });
export type NoteFilter = z.output<typeof NoteListQuery>;
