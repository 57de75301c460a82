import type { Db } from '../db/knex.js';
import type { Product, ProductDetail } from '../../contract/catalog.js';
import { approvedMediaFor } from '../media/media.queries.js';
import { conflict, notFound } from '../http/errors.js';
import { findProductByCode, findProductRow, insertProduct, toProduct, updateProductRow } from './products.repository.js';
import type { ProductInput } from './products.schema.js';

export async function getProduct(db: Db, id: number): Promise<Product> {
  const row = await findProductRow(db, id);
  if (!row) throw notFound('Product');
  return toProduct(row);
}

/** The product with its approved media, as GET /api/products/{id} shows it. */
export async function getProductDetail(db: Db, id: number): Promise<ProductDetail> {
  const product = await getProduct(db, id);
  return { ...product, medias: await approvedMediaFor(db, 'product', id) };
}

async function assertCodeFree(db: Db, code: string | null | undefined, exceptId?: number): Promise<void> {
  if (!code) return;
  const existing = await findProductByCode(db, code);
  if (existing && existing.id !== exceptId) throw conflict(`Product code "${code}" is already used by product ${existing.id}`);
}

export async function createProduct(db: Db, input: ProductInput & { name: string }): Promise<Product> {
  await assertCodeFree(db, input.code);
  return getProduct(db, await insertProduct(db, input));
}

export async function updateProduct(db: Db, id: number, input: ProductInput): Promise<Product> {
  await getProduct(db, id);
  await assertCodeFree(db, input.code, id);
  await updateProductRow(db, id, input);
  return getProduct(db, id);
}

/** Soft delete: the product becomes inactive and disappears from course detail. */
export async function deactivateProduct(db: Db, id: number): Promise<Product> {
  return updateProduct(db, id, { status: 'inactive' });
}
