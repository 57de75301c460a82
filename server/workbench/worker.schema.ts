import { z } from 'zod';
import { nameText } from '../http/plain-text.js';
import { KeyField, atLeastOneField, text } from './fields.js';
import { SearchPaging } from '../http/validate.js';

export const MAX_DOCUMENT_CHARS = 1_000_000;

const Document = z.union([
  z.object({ name: nameText(200).min(1), content: z.string().min(1).max(MAX_DOCUMENT_CHARS) }),
  /** One of the caller's transcriptions (POST /api/audio/transcribe), its text with speaker labels when it has them. */
  z.object({ transcription_id: z.number().int().positive().max(2_147_483_647), name: nameText(200).min(1).optional() }),
]);

export const WorkerChatBody = z
  .object({
    message: z.string().trim().min(1).max(20_000),
    /** Omitted or null: this message starts a new task. */
    task_id: z.number().int().positive().nullable().optional(),
    /** Unknown or inactive keys (and null) fall back to the general assistant without an error (4.8). */
    specialist_key: z.string().trim().max(500).nullable().optional(),
    project_id: z.number().int().positive().nullable().optional(),
    /** Runs this skill on `documents` instead of a plain chat turn. */
    skill_key: KeyField.optional(),
    documents: z.array(Document).min(1).max(20).optional(),
    /** Template values of a skill run, e.g. {fields: [...]} or {checklist: [...]}. */
    inputs: z.record(z.string(), z.unknown()).optional(),
  })
  .refine((v) => (v.documents ?? []).reduce((n, d) => n + ('content' in d ? d.content.length : 0), 0) <= MAX_DOCUMENT_CHARS, {
    message: `documents may hold ${MAX_DOCUMENT_CHARS} characters in all`,
    path: ['documents'],
  })
  .refine((v) => !v.skill_key || !!v.documents?.length, { message: 'a skill run needs at least one document', path: ['documents'] });
export type WorkerChatInput = z.output<typeof WorkerChatBody>;

/** The assigned owner name (part 6); blank means unassigned. */
const OwnerField = text(100)
  .nullable()
  .transform((v) => (v ? v : null));

export const TaskUpdate = z
  .object({
    title: nameText(200).min(1).optional(),
    pinned: z.boolean().optional(),
    project_id: z.number().int().positive().nullable().optional(),
    owner: OwnerField.optional(),
  })
  .refine(atLeastOneField, 'give at least one of title, pinned, project_id, owner');

/** `q` searches the title; `page` + `size` page the list (all when neither is given). */
export const TaskListQuery = SearchPaging.extend({ project_id: z.coerce.number().int().positive().optional() });

export const ProjectCreate = z.object({
  name: nameText(200).min(1),
  description: text(10_000).optional(),
});
export const ProjectUpdate = ProjectCreate.partial().refine(atLeastOneField, 'give at least one of name, description');
