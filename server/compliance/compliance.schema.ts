import { z } from 'zod';
import { nameText } from '../http/plain-text.js';
import { RuleConditions, RuleKinds, RuleSetScopes, Severities } from '../../contract/compliance.js';
import { Paging } from '../http/validate.js';
import { LooseDate } from '../http/dates.js';

const text = (max: number) => z.string().trim().max(max);
const Localized = (max: number) => z.object({ 'zh-CN': text(max).min(1), en: text(max).min(1) });

export const Rule = z
  .object({
    key: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'lowercase letters, digits and _ (starting with a letter, at most 64)'),
    name: Localized(200),
    explanation: Localized(2000),
    kind: z.enum(RuleKinds),
    phrases: z.array(text(200).min(1)).max(200).default([]),
    negations: z.array(text(20).min(1)).max(50).optional(),
    window: z
      .object({ within_seconds: z.number().int().min(1).max(86_400).optional(), before_product_named: z.boolean().optional() })
      .strict()
      .nullable()
      .optional(),
    severity: z.enum(Severities),
    condition: z.enum(RuleConditions).nullable().optional(),
  })
  .strict()
  .refine((r) => r.kind === 'risk_match' || r.phrases.length > 0, { message: 'needs at least one phrase', path: ['phrases'] });
export type RuleInput = z.output<typeof Rule>;

const Rules = z
  .array(Rule)
  .min(1)
  .max(500)
  .refine((rules) => new Set(rules.map((r) => r.key)).size === rules.length, 'two rules share a key');

const ScopeValue = z.union([z.string().trim().min(1).max(100), z.number().int().positive().transform(String)]);

export const RuleSetCreate = z
  .object({
    name: nameText(200).min(1),
    scope: z.enum(RuleSetScopes),
    scope_value: ScopeValue.nullable().optional(),
    status: z.enum(['active', 'inactive']).default('active'),
    rules: Rules,
  })
  .strict();
export const RuleSetUpdate = z
  .object({
    name: nameText(200).min(1).optional(),
    scope: z.enum(RuleSetScopes).optional(),
    scope_value: ScopeValue.nullable().optional(),
    status: z.enum(['active', 'inactive']).optional(),
    rules: Rules.optional(),
  })
  .strict();
export type RuleSetUpdateInput = z.output<typeof RuleSetUpdate>;

export const RuleSetListQuery = z.object({ status: z.enum(['active', 'inactive', 'all']).default('all') });

export const InspectBody = z
  .object({
    transcription_id: z.number().int().positive(),
    revision: z.number().int().positive().optional(),
    product_id: z.number().int().positive().optional(),
    /** Who the rep is, when the call's labels do not say (`A`/`B`) and no coaching report names the rep. */
    rep_speaker: text(100).min(1).optional(),
  })
  .strict();
export type InspectInput = z.output<typeof InspectBody>;

const day = LooseDate('must be a date (YYYY-MM-DD) or an ISO time');

export const InspectionFilter = z.object({
  rule_key: z.string().trim().max(64).optional(),
  outcome: z.enum(['pass', 'fail', 'not_applicable']).optional(),
  department: z.string().trim().max(100).optional(),
  product_id: z.coerce.number().int().positive().optional(),
  user_id: z.coerce.number().int().positive().optional(),
  transcription_id: z.coerce.number().int().positive().optional(),
  from: day.optional(),
  to: day.optional(),
});
export type InspectionFilterInput = z.output<typeof InspectionFilter>;

export const InspectionListQuery = InspectionFilter.merge(Paging);
export type InspectionListInput = z.output<typeof InspectionListQuery>;

export const InspectionExportQuery = InspectionFilter.extend({
  lang: z.enum(['zh-CN', 'en']).default('zh-CN'),
  /** The reader's offset; without it times are in the firm's time zone (the `timezone` setting). */
  tz_offset: z.coerce.number().int().min(-720).max(840).optional(),
});
export type InspectionExportInput = z.output<typeof InspectionExportQuery>;

export const StatsQuery = InspectionFilter.pick({ department: true, product_id: true, from: true, to: true });
export type StatsInput = z.output<typeof StatsQuery>;
