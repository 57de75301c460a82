// The commission quick action: the product's rate applied to an amount, or to a reference amount as an example.
import type { Db } from '../db/knex.js';
import type { Product } from '../../contract/catalog.js';
import { AiErrorCode, COMMISSION_REFERENCE_AMOUNT, type CommissionResult } from '../../contract/ai.js';
import { AppError } from '../http/errors.js';
import { CommissionParams } from './chat.schema.js';
import { activeProduct, parseParams, summary } from './action-support.js';

/** Money is computed in cents so the result does not depend on float noise. */
export function commissionOf(amount: number, ratePercent: number): number {
  return Math.round(amount * ratePercent) / 100;
}

/** The product's `currency` attribute (any letter case of the key); null when it has none. */
export function currencyOf(product: Product): string | null {
  const key = Object.keys(product.attributes).find((k) => k.toLowerCase() === 'currency');
  return (key && product.attributes[key]?.trim()) || null;
}

// Made on first use: ICU's number data costs some 10 ms to load, at every server start otherwise.
let grouped: Intl.NumberFormat | undefined;
const formatGrouped = (n: number) => (grouped ??= new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 })).format(n);

function answerText(product: Product, r: Pick<CommissionResult, 'amount' | 'amount_given' | 'currency' | 'commission_rate' | 'commission'>): string {
  const money = (n: number) => (r.currency ? `${formatGrouped(n)} ${r.currency}` : formatGrouped(n));
  const name = product.code ? `${product.name} (${product.code})` : product.name;
  const sum = `${money(r.amount)} × ${r.commission_rate}% = ${money(r.commission)}`;
  return r.amount_given
    ? `${name} pays a ${r.commission_rate}% commission: ${sum}.`
    : `${name} pays a ${r.commission_rate}% commission. No amount was given, so this is an example for a reference amount of ${money(r.amount)}: ${sum}.`;
}

export async function commission(db: Db, params: unknown): Promise<CommissionResult> {
  const input = parseParams(CommissionParams, params);
  const product = await activeProduct(db, input);
  if (product.commission_rate === null) {
    throw new AppError(400, AiErrorCode.commissionRateMissing, `Product "${product.code ?? product.name}" has no commission rate recorded, so no commission can be calculated`);
  }
  const amount = input.amount ?? COMMISSION_REFERENCE_AMOUNT;
  const value = commissionOf(amount, product.commission_rate);
  const figures = { amount, amount_given: input.amount != null, currency: currencyOf(product), commission_rate: product.commission_rate, commission: value };
  return {
    action_id: 'commission',
    product: summary(product),
    ...figures,
    formula: `${amount} × ${product.commission_rate}% = ${value}`,
    answer: answerText(product, figures),
  };
}
