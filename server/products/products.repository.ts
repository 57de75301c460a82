import type { Knex } from 'knex';
import { searchAndPage } from '../db/paginate.js';
import type { Db } from '../db/knex.js';
import type { Product } from '../../contract/catalog.js';
import { parseJson, toNullableNumber } from '../db/rows.js';
import { now } from '../db/time.js';
import { cachedCatalogJson, catalogChanged } from '../db/catalog-cache.js';
import type { SerializedJson } from '../http/envelope.js';
import type { ListFilter, ProductInput } from './products.schema.js';

export interface ProductRow {
  id: number;
  code: string | null;
  name: string;
  category: string;
  status: Product['status'];
  summary: string;
  description: string;
  risk_level: string;
  cooling_off_days: number | string;
  commission_rate: number | null;
  attributes: string;
  created_at: string;
  updated_at: string;
}

export const toProduct = (r: ProductRow): Product => ({
  id: Number(r.id),
  code: r.code,
  name: r.name,
  category: r.category,
  status: r.status,
  summary: r.summary,
  description: r.description,
  risk_level: r.risk_level,
  cooling_off_days: Number(r.cooling_off_days ?? 0),
  commission_rate: toNullableNumber(r.commission_rate),
  attributes: parseJson<Record<string, string>>(r.attributes, {}),
  created_at: r.created_at,
  updated_at: r.updated_at,
});

/** `status` semantics shared by products and courses: omitted → active only, `all` → every status, else exact. */
export const statusToMatch = (status: string | undefined): string | undefined => (status === 'all' ? undefined : status || 'active');


/** The list as JSON, cached per filter: the hot path of every catalog screen. */
export async function listProductsJson(db: Db, filter: ListFilter): Promise<SerializedJson> {
  const key = JSON.stringify([filter.category, filter.status, filter.q, filter.page, filter.size]);
  return cachedCatalogJson(db, `products:${key}`, () => listProducts(db, filter));
}

/** The categories of active products or courses, sorted, for the catalog's filter (cached with the catalog). */
export function categoriesJson(db: Db, table: 'products' | 'courses'): Promise<SerializedJson> {
  return cachedCatalogJson(db, `${table}:categories`, async () => {
    const rows: { category: string }[] = await db(table).distinct('category').where('status', 'active').whereNot('category', '').orderBy('category');
    return rows.map((row) => row.category);
  });
}

export async function listProducts(db: Db, filter: ListFilter): Promise<Product[]> {
  const query = db<ProductRow>('products').orderBy('id');
  const status = statusToMatch(filter.status);
  if (status) query.where('status', status);
  if (filter.category) query.where('category', filter.category);
  return (await searchAndPage(query, ['name', 'code'], filter)).map(toProduct);
}

export const findProductRow = (db: Db, id: number): Promise<ProductRow | undefined> => db<ProductRow>('products').where({ id }).first();

export const findProductByCode = async (db: Db, code: string): Promise<Product | undefined> => {
  const row = await db<ProductRow>('products').where({ code }).first();
  return row && toProduct(row);
};

function toRow(input: ProductInput): Partial<ProductRow> {
  const row: Partial<ProductRow> = {};
  for (const key of ['code', 'name', 'category', 'status', 'summary', 'description', 'risk_level', 'cooling_off_days', 'commission_rate'] as const) {
    if (input[key] !== undefined) (row as Record<string, unknown>)[key] = input[key];
  }
  if (input.attributes !== undefined) row.attributes = JSON.stringify(input.attributes);
  return row;
}

export async function insertProduct(db: Db, input: ProductInput & { name: string }): Promise<number> {
  const stamp = now();
  const [row] = await db('products').insert({ ...toRow(input), created_at: stamp, updated_at: stamp }).returning('id');
  catalogChanged(db);
  return Number((row as { id: number }).id);
}

export async function updateProductRow(db: Db, id: number, input: ProductInput): Promise<void> {
  await db('products').where({ id }).update({ ...toRow(input), updated_at: now() });
  catalogChanged(db);
}
