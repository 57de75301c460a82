// The compare quick action: a side-by-side table of products named by code, or of one product and its peers.
import type { Db } from '../db/knex.js';
import type { Product } from '../../contract/catalog.js';
import type { CompareResult, CompareRow } from '../../contract/ai.js';
import { notFound } from '../http/errors.js';
import { findProductByCode, toProduct, type ProductRow } from '../products/products.repository.js';
import { CompareParams } from './chat.schema.js';
import { activeProduct, parseParams, summary } from './action-support.js';

/** How many other products a single product is compared with. */
export const COMPARE_PEERS = 2;

const compareFields: [keyof Product, string][] = [
  ['name', 'Name'],
  ['code', 'Code'],
  ['category', 'Category'],
  ['risk_level', 'Risk level'],
  ['commission_rate', 'Commission rate (%)'],
  ['summary', 'Summary'],
];

export function compareTable(products: Product[]): CompareRow[] {
  const rows: CompareRow[] = compareFields.map(([field, label]) => ({
    field,
    label,
    values: products.map((p) => (p[field] === '' ? null : (p[field] as string | number | null))),
  }));
  const attributeKeys = [...new Set(products.flatMap((p) => Object.keys(p.attributes)))];
  for (const key of attributeKeys) rows.push({ field: `attributes.${key}`, label: key, values: products.map((p) => p.attributes[key] ?? null) });
  return rows;
}

/** Other active products of the same category, nearest id first (ties: the lower id). */
async function peersOf(db: Db, product: Product): Promise<Product[]> {
  if (!product.category) return [];
  const rows = await db<ProductRow>('products')
    .where({ status: 'active', category: product.category })
    .whereNot('id', product.id)
    .orderByRaw('abs(id - ?)', [product.id])
    .orderBy('id')
    .limit(COMPARE_PEERS);
  return rows.map(toProduct);
}

function peersNote(product: Product, peers: Product[]): string {
  if (!product.category) return 'No comparable product exists: this product has no category.';
  if (!peers.length) return `No comparable product exists: no other active product in category "${product.category}".`;
  const what = peers.length === 1 ? 'the other active product' : `the ${peers.length} nearest active products`;
  return `Compared with ${what} in category "${product.category}".`;
}

async function byCodes(db: Db, codes: string[]): Promise<Product[]> {
  const found = await Promise.all(codes.map((code) => findProductByCode(db, code)));
  const missing = codes.filter((_, i) => found[i]?.status !== 'active');
  if (missing.length) throw notFound(`Product ${missing.map((c) => `"${c}"`).join(', ')}`);
  return found as Product[];
}

export async function compare(db: Db, params: unknown): Promise<CompareResult> {
  const { product_codes, ...ref } = parseParams(CompareParams, params);
  let products: Product[];
  let note: string | null = null;
  if (product_codes) {
    products = await byCodes(db, product_codes);
  } else {
    const product = await activeProduct(db, ref);
    const peers = await peersOf(db, product);
    products = [product, ...peers];
    note = peersNote(product, peers);
  }
  return { action_id: 'compare', products: products.map(summary), rows: compareTable(products), note };
}
