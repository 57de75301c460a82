import { z } from 'zod';
import { RiskTolerances, ScenarioStatuses } from '../../contract/roleplay.js';
import { Paging } from '../http/validate.js';

const text = (max: number) => z.string().trim().max(max);

export const Persona = z
  .object({
    name: text(100).min(1),
    profile: text(2000).default(''),
    risk_tolerance: z.enum(RiskTolerances),
  })
  .strict();

export const Criterion = z
  .object({
    key: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'lowercase letters, digits and _ (starting with a letter, at most 64)'),
    label: text(200).min(1),
    weight: z.number().positive().max(100).default(1),
    rule_key: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/).optional(),
    phrases: z.array(text(200).min(1)).max(100).optional(),
    description: text(1000).min(1).optional(),
  })
  .strict()
  .refine((c) => c.rule_key !== undefined || (c.phrases?.length ?? 0) > 0 || c.description !== undefined, {
    message: 'a criterion needs a rule_key, phrases or a description',
  });
export type CriterionInput = z.output<typeof Criterion>;

const Criteria = z
  .array(Criterion)
  .min(1)
  .max(50)
  .refine((list) => new Set(list.map((c) => c.key)).size === list.length, 'two criteria share a key');

export const ScenarioCreate = z
  .object({
    title: text(200).min(1),
    product_id: z.number().int().positive().nullable().optional(),
    persona: Persona,
    opening: text(2000).min(1),
    objections: z.array(text(2000).min(1)).max(30).default([]),
    closing: text(2000).min(1),
    criteria: Criteria,
    pass_score: z.number().int().min(0).max(100).default(60),
    max_turns: z.number().int().min(1).max(100).default(12),
    status: z.enum(ScenarioStatuses).default('active'),
  })
  .strict();
export type ScenarioCreateInput = z.output<typeof ScenarioCreate>;

export const ScenarioUpdate = z
  .object({
    title: text(200).min(1).optional(),
    product_id: z.number().int().positive().nullable().optional(),
    persona: Persona.optional(),
    opening: text(2000).min(1).optional(),
    objections: z.array(text(2000).min(1)).max(30).optional(),
    closing: text(2000).min(1).optional(),
    criteria: Criteria.optional(),
    pass_score: z.number().int().min(0).max(100).optional(),
    max_turns: z.number().int().min(1).max(100).optional(),
    status: z.enum(ScenarioStatuses).optional(),
  })
  .strict();
export type ScenarioUpdateInput = z.output<typeof ScenarioUpdate>;

export const ScenarioListQuery = z.object({ status: z.enum(['active', 'inactive', 'all']).optional() });

export const SessionCreate = z.object({ scenario_id: z.number().int().positive() }).strict();

export const TURN_TEXT_MAX = 4000;
export const TurnBody = z.object({ text: text(TURN_TEXT_MAX).min(1) }).strict();

export const SessionListQuery = Paging.extend({
  user_id: z.coerce.number().int().positive().optional(),
  scenario_id: z.coerce.number().int().positive().optional(),
  status: z.enum(['active', 'finished']).optional(),
});
export type SessionListFilter = z.output<typeof SessionListQuery>;
