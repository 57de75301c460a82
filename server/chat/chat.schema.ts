import { z } from 'zod';

export const MessageBody = z.object({
  message: z.string().trim().min(1).max(8000),
  context: z
    .object({
      product_id: z.number().int().positive().nullable().optional(),
      page: z.string().trim().max(200).nullable().optional(),
    })
    .nullable()
    .optional(),
});
export type MessageInput = z.output<typeof MessageBody>;

export const QuickActionBody = z.object({
  action_id: z.string().trim().min(1).max(50),
  params: z.record(z.string(), z.unknown()).default({}),
});

/** A product named by code or by id (one of them). */
const ProductRef = z
  .object({
    product_code: z.string().trim().min(1).max(64).optional(),
    product_id: z.number().int().positive().optional(),
  })
  .refine((v) => (v.product_code === undefined) !== (v.product_id === undefined), { message: 'give product_code or product_id (one of them)', path: ['product_code'] });
export type ProductRefInput = z.output<typeof ProductRef>;

export const CommissionParams = z.intersection(ProductRef, z.object({ amount: z.number().positive().max(1e12) }));

export const CompareParams = z.object({
  product_codes: z
    .array(z.string().trim().min(1).max(64))
    .min(2, 'compare needs at least two product codes')
    .max(10)
    .refine((codes) => new Set(codes).size === codes.length, 'product codes must not repeat'),
});

export const ScenarioParams = z.intersection(
  ProductRef,
  z.object({
    customer_profile: z.string().trim().max(500).optional(),
    difficulty: z.enum(['easy', 'medium', 'hard']).optional(),
  }),
);

export const HistoryQuery = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) });
