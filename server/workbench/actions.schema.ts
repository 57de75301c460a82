import { z } from 'zod';
import { nameText } from '../http/plain-text.js';
import { DefinitionStateField, JsonTextField, KeyField, text, updateSchema } from './fields.js';

const actionFields = {
  key: KeyField,
  name: nameText(200).min(1),
  description: text(10_000).optional(),
  kind: z.enum(['prompt', 'skill', 'xapp']),
  /** Required for kind `skill`: a known skill key. */
  skill_key: KeyField.nullable().optional(),
  /** Required for kind `xapp`: a known app definition key. */
  xapp_key: KeyField.nullable().optional(),
  /** The message the action sends; required for kind `prompt`. */
  prompt: z.string().max(50_000).optional(),
  config_json: JsonTextField.optional(),
  state: DefinitionStateField.optional(),
};

export const ActionCreate = z.object(actionFields);
export const ActionUpdate = updateSchema(actionFields);
export type ActionInput = z.output<typeof ActionUpdate>;

export const ActionListQuery = z.object({ state: DefinitionStateField.optional(), kind: actionFields.kind.optional() });
export type ActionFilter = z.output<typeof ActionListQuery>;
