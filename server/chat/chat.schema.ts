import { z } from 'zod';

export const MessageBody = z.object({
  message: z.string().trim().min(1).max(8000),
  context: z
    .object({
      // A numeric string ("12") is taken as the number: page state often keeps ids as strings.
      product_id: z
        .preprocess((v) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v), z.number().int().positive())
        .nullable()
        .optional(),
      page: z.string().trim().max(200).nullable().optional(),
      // A role-play seeded with a coaching report's real objections (the report's scenario.launch.message).
      coaching_report_id: z.number().int().positive().max(2_147_483_647).nullable().optional(),
    })
    .nullable()
    .optional(),
});
export type MessageInput = z.output<typeof MessageBody>;

export const QuickActionBody = z.object({
  action_id: z.string().trim().min(1).max(50),
  params: z.record(z.string(), z.unknown()).default({}),
});

const productCode = z.string().trim().min(1).max(64);
const productRefFields = { product_code: productCode.optional(), product_id: z.number().int().positive().optional() };
const given = (...values: unknown[]) => values.filter((v) => v !== undefined).length;

/** A product named by code or by id (one of them). */
const ProductRef = z
  .object(productRefFields)
  .refine((v) => given(v.product_code, v.product_id) === 1, { message: 'give product_code or product_id (one of them)', path: ['product_code'] });
export type ProductRefInput = z.output<typeof ProductRef>;

/** Without an amount (or with null) the answer is a worked example for a reference amount. */
export const CommissionParams = z.intersection(ProductRef, z.object({ amount: z.number().positive().max(1e12).nullish() }));

/** Either the products to compare, or one product to compare with its nearest peers of the same category. */
export const CompareParams = z
  .object({
    ...productRefFields,
    product_codes: z
      .array(productCode)
      .min(2, 'compare needs at least two product codes')
      .max(10)
      .refine((codes) => new Set(codes).size === codes.length, 'product codes must not repeat')
      .optional(),
  })
  .refine((v) => given(v.product_codes, v.product_code, v.product_id) === 1, {
    message: 'give product_codes, product_code or product_id (one of them)',
    path: ['product_codes'],
  });

/** A product by code or id; with coaching_report_id the product may be left out (the report's product is used). */
export const ScenarioParams = z
  .object({
    ...productRefFields,
    coaching_report_id: z.number().int().positive().max(2_147_483_647).optional(),
    customer_profile: z.string().trim().max(500).optional(),
    difficulty: z.enum(['easy', 'medium', 'hard']).optional(),
  })
  .refine((v) => given(v.product_code, v.product_id) === 1 || (v.coaching_report_id !== undefined && given(v.product_code, v.product_id) === 0), {
    message: 'give product_code or product_id (one of them), or coaching_report_id',
    path: ['product_code'],
  });

export const HistoryQuery = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) });
