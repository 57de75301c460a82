import { z } from 'zod';
import { nameText } from '../http/plain-text.js';
import { riskLevelOf } from '../compliance/engine.js';

const text = (max: number) => z.string().trim().max(max);

/** The editable fields of a product; everything not named here goes to `attributes` only when given there. */
export const ProductFields = z.object({
  code: text(64).min(1).nullable().optional(),
  name: nameText(200).min(1),
  category: text(100).optional(),
  status: z.enum(['active', 'inactive']).optional(),
  summary: text(10_000).optional(),
  description: text(100_000).optional(),
  // R1–R5 (also written r3, PR3, 中风险 or low … high), or '' for not set; anything else is kept as written, and
  // the caller decides whether to refuse it (see unrecognisedRiskLevel).
  risk_level: text(50)
    .transform((v) => (v === '' ? v : (riskLevelOf(v) ?? v)))
    .optional(),
  cooling_off_days: z.number().int().min(0).max(365).optional(),
  commission_rate: z.number().min(0).max(100).nullable().optional(),
  attributes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).transform(String)).optional(),
});

export const ProductCreate = ProductFields;

/** A risk level (as the schema left it) that names no level: such a product has no level for `risk_match`. */
export const unrecognisedRiskLevel = (value: string | undefined): value is string => !!value && riskLevelOf(value) === null;

export const RISK_LEVEL_HINT = 'must be one of R1, R2, R3, R4, R5 (also written PR3, 中风险 or low, medium-low, medium, medium-high, high), or empty';
export const ProductUpdate = ProductFields.partial();
export type ProductInput = z.output<typeof ProductUpdate>;

/** List filters shared by products and courses; page and size are optional (without them, every match). */
export const ListQuery = z.object({
  category: z.string().optional(),
  status: z.string().optional(),
  q: z.string().trim().optional(),
  page: z.coerce.number().int().min(1).optional(),
  size: z.coerce.number().int().min(1).max(500).optional(),
});
export type ListFilter = z.output<typeof ListQuery>;
