import { z } from 'zod';
import { nameText } from '../http/plain-text.js';
import { JsonTextField, KeyField, text, updateSchema } from './fields.js';
import { SearchPaging } from '../http/validate.js';

const specialistFields = {
  key: KeyField,
  name: nameText(200).min(1),
  /** `system` is reserved for built-in specialists; the service enforces it. */
  state: z.enum(['active', 'inactive', 'system']).optional(),
  rule_file_markdown: z.string().max(200_000).optional(),
  allowed_skills: z
    .array(KeyField)
    .max(100)
    .refine((keys) => new Set(keys).size === keys.length, 'must not repeat a skill key')
    .optional(),
  interaction_card_json: JsonTextField.nullable().optional(),
  inputs_records_json: JsonTextField.nullable().optional(),
};

export const SpecialistCreate = z.object(specialistFields);
export const SpecialistUpdate = updateSchema(specialistFields);
export type SpecialistInput = z.output<typeof SpecialistUpdate>;

/**
 * `state` of GET /api/specialists (4.11): omitted → active; `all` (admin) → all but system; else exact match.
 * `q` searches key and name; `page` + `size` page the list (all when neither is given).
 */
export const SpecialistListQuery = SearchPaging.extend({ state: z.string().trim().max(32).optional() });
export type SpecialistListFilter = z.output<typeof SpecialistListQuery>;
