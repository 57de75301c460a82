// What the quick actions share: params parsing, product lookup and the product summary of a result.
import { z } from 'zod';
import type { Db } from '../db/knex.js';
import type { Product } from '../../contract/catalog.js';
import type { QuickActionProduct } from '../../contract/ai.js';
import { notFound } from '../http/errors.js';
import { parseWith } from '../http/validate.js';
import { findProductByCode, findProductRow, toProduct } from '../products/products.repository.js';
import type { ProductRefInput } from './chat.schema.js';

/** Params are reported as `params.<field>` in validation errors. */
export const parseParams = <S extends z.ZodType>(schema: S, params: unknown): z.output<S> =>
  (parseWith(z.object({ params: schema }), { params }) as { params: z.output<S> }).params;

export const summary = (p: Product): QuickActionProduct => ({ id: p.id, code: p.code, name: p.name });

/** Product ids are 32-bit; PostgreSQL rejects a larger value in the query instead of finding nothing. */
const MAX_PRODUCT_ID = 2_147_483_647;

/** The product with this id when it exists and is active. */
export async function activeProductById(db: Db, id: number): Promise<Product | undefined> {
  const row = id <= MAX_PRODUCT_ID ? await findProductRow(db, id) : undefined;
  return row?.status === 'active' ? toProduct(row) : undefined;
}

/** Quick actions work on active products only; anything else is a 404. */
export async function activeProduct(db: Db, ref: ProductRefInput): Promise<Product> {
  const product =
    ref.product_id !== undefined ? await activeProductById(db, ref.product_id) : ref.product_code !== undefined ? await findProductByCode(db, ref.product_code) : undefined;
  if (!product || product.status !== 'active') throw notFound(`Product "${ref.product_code ?? ref.product_id}"`);
  return product;
}
