// Quick actions of the coach: a commission calculation, a product comparison, a practice scenario.
import { z } from 'zod';
import type { Db } from '../db/knex.js';
import type { Product } from '../../contract/catalog.js';
import {
  AiErrorCode,
  QuickActionIds,
  type CommissionResult,
  type CompareResult,
  type CompareRow,
  type QuickAction,
  type QuickActionId,
  type QuickActionProduct,
  type QuickActionResult,
  type ScenarioResult,
} from '../../contract/ai.js';
import { AppError, badRequest, notFound } from '../http/errors.js';
import { parseWith } from '../http/validate.js';
import { findProductByCode, findProductRow, toProduct } from '../products/products.repository.js';
import { streamChat } from '../ai/chat-client.js';
import { coachInstructions } from './coach-prompt.js';
import { CommissionParams, CompareParams, ScenarioParams, type ProductRefInput } from './chat.schema.js';

const labels: Record<QuickActionId, string> = {
  scenario: 'Practice scenario',
  commission: 'Commission calculator',
  compare: 'Compare products',
};

export const quickActions = (): QuickAction[] => QuickActionIds.map((id) => ({ id, label: labels[id] }));

/** Params are reported as `params.<field>` in validation errors. */
const parseParams = <S extends z.ZodType>(schema: S, params: unknown): z.output<S> =>
  (parseWith(z.object({ params: schema }), { params }) as { params: z.output<S> }).params;

const summary = (p: Product): QuickActionProduct => ({ id: p.id, code: p.code, name: p.name });

/** Quick actions work on active products only; anything else is a 404. */
async function activeProduct(db: Db, ref: ProductRefInput): Promise<Product> {
  const row = ref.product_id !== undefined ? await findProductRow(db, ref.product_id) : undefined;
  const product = row ? toProduct(row) : ref.product_code !== undefined ? await findProductByCode(db, ref.product_code) : undefined;
  if (!product || product.status !== 'active') throw notFound(`Product "${ref.product_code ?? ref.product_id}"`);
  return product;
}

/** Money is computed in cents so the result does not depend on float noise. */
export function commissionOf(amount: number, ratePercent: number): number {
  return Math.round(amount * ratePercent) / 100;
}

async function commission(db: Db, params: unknown): Promise<CommissionResult> {
  const input = parseParams(CommissionParams, params);
  const product = await activeProduct(db, input);
  if (product.commission_rate === null) {
    throw new AppError(400, AiErrorCode.commissionRateMissing, `Product "${product.code ?? product.name}" has no commission rate`);
  }
  const value = commissionOf(input.amount, product.commission_rate);
  return {
    action_id: 'commission',
    product: summary(product),
    amount: input.amount,
    commission_rate: product.commission_rate,
    commission: value,
    formula: `${input.amount} × ${product.commission_rate}% = ${value}`,
  };
}

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

async function compare(db: Db, params: unknown): Promise<CompareResult> {
  const { product_codes } = parseParams(CompareParams, params);
  const found = await Promise.all(product_codes.map((code) => findProductByCode(db, code)));
  const missing = product_codes.filter((_, i) => found[i]?.status !== 'active');
  if (missing.length) throw notFound(`Product ${missing.map((c) => `"${c}"`).join(', ')}`);
  const products = found as Product[];
  return { action_id: 'compare', products: products.map(summary), rows: compareTable(products) };
}

async function scenario(db: Db, params: unknown, caller: QuickActionCaller): Promise<ScenarioResult> {
  const input = parseParams(ScenarioParams, params);
  const product = await activeProduct(db, input);
  const ask = [
    `Write a role-play practice scenario for selling the product "${product.name}".`,
    'Give: the customer profile, the situation, three to five objections the customer is likely to raise, the learning goals, and the customer\'s opening line. Keep it under 400 words.',
    input.customer_profile && `The customer: ${input.customer_profile}.`,
    input.difficulty && `Difficulty: ${input.difficulty}.`,
  ].filter(Boolean);
  const result = await streamChat(db, {
    messages: [
      { role: 'system', content: coachInstructions({ product, chunks: [] }) },
      { role: 'user', content: ask.join('\n') },
    ],
    onToken: () => undefined,
    signal: caller.signal,
    log: { user_id: caller.userId, purpose: 'quick_action.scenario' },
  });
  return { action_id: 'scenario', product: summary(product), scenario: result.text, route: result.route };
}

export interface QuickActionCaller {
  userId: number;
  /** Aborts a model call when the client goes away. */
  signal?: AbortSignal;
}

export async function runQuickAction(db: Db, actionId: string, params: unknown, caller: QuickActionCaller): Promise<QuickActionResult> {
  switch (actionId) {
    case 'commission':
      return commission(db, params);
    case 'compare':
      return compare(db, params);
    case 'scenario':
      return scenario(db, params, caller);
    default:
      throw badRequest(`Unknown quick action "${actionId}"; use one of ${QuickActionIds.join(', ')}`, undefined, AiErrorCode.unknownQuickAction);
  }
}
