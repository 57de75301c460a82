import { z } from 'zod';
import { nameText } from '../http/plain-text.js';
import { QueryBool, SearchPaging } from '../http/validate.js';
import { DefinitionStateField, JsonTextField, KeyField, text, updateSchema } from './fields.js';

const ConfigJsonField = JsonTextField.refine((json) => json.startsWith('{'), 'must be a JSON object');

const commonFields = {
  key: KeyField,
  name: nameText(200).min(1),
  description: text(10_000).optional(),
  state: DefinitionStateField.optional(),
  /** Rule 2.3.1: a JSON boolean; omitted stays apart from false. */
  exposed_to_user: z.boolean().optional(),
  config_json: ConfigJsonField.optional(),
};

const skillFields = {
  ...commonFields,
  output_kind: z.enum(['table', 'report']).optional(),
  prompt_template: z.string().max(50_000).optional(),
};

export const SkillCreate = z.object(skillFields);
export const SkillUpdate = updateSchema(skillFields);
export const XAppCreate = z.object(commonFields);
export const XAppUpdate = updateSchema(commonFields);

export type DefinitionInput = z.output<typeof SkillUpdate>;

export const DefinitionListQuery = SearchPaging.extend({
  state: DefinitionStateField.optional(),
  exposed_to_user: QueryBool.optional(),
});
export type DefinitionFilter = z.output<typeof DefinitionListQuery>;
