// Quick actions of the coach: a commission calculation, a product comparison, a practice scenario.
import type { Db } from '../db/knex.js';
import { AiErrorCode, QuickActionIds, type QuickAction, type QuickActionId, type QuickActionResult, type ScenarioResult } from '../../contract/ai.js';
import type { z } from 'zod';
import { badRequest, validationFailed } from '../http/errors.js';
import { rolePlayOf } from '../coaching/reports.service.js';
import { streamChat } from '../ai/chat-client.js';
import { coachInstructions } from './coach-prompt.js';
import { ScenarioParams } from './chat.schema.js';
import { activeProduct, parseParams, summary } from './action-support.js';
import { commission } from './commission.js';
import { compare } from './compare.js';

const labels: Record<QuickActionId, string> = {
  scenario: 'Practice scenario',
  commission: 'Commission calculator',
  compare: 'Compare products',
};

export const quickActions = (): QuickAction[] => QuickActionIds.map((id) => ({ id, label: labels[id] }));

/** The product of a scenario: the one named, else the coaching report's. */
async function scenarioProduct(db: Db, input: z.output<typeof ScenarioParams>, reportProductId: number | null | undefined) {
  if (input.product_code !== undefined || input.product_id !== undefined) return activeProduct(db, input);
  if (reportProductId) return activeProduct(db, { product_id: reportProductId });
  throw validationFailed('Invalid params.product_code: the coaching report names no product; give product_code or product_id', [{ path: 'params.product_code', message: 'required: the report names no product' }]);
}

async function scenario(db: Db, params: unknown, caller: QuickActionCaller): Promise<ScenarioResult> {
  const input = parseParams(ScenarioParams, params);
  const rolePlay = input.coaching_report_id !== undefined ? await rolePlayOf(db, { id: caller.userId, role: caller.role ?? 'employee' }, input.coaching_report_id) : undefined;
  const product = await scenarioProduct(db, input, rolePlay?.productId);
  const ask = [
    `Write a role-play practice scenario for selling the product "${product.name}".`,
    rolePlay
      ? 'It replays a real call: build it on the customer and the objections in the instructions, quoting the customer\'s words. Give: the customer profile, the situation, those objections, the learning goals, and the customer\'s opening line. Keep it under 400 words.'
      : 'Give: the customer profile, the situation, three to five objections the customer is likely to raise, the learning goals, and the customer\'s opening line. Keep it under 400 words.',
    input.customer_profile && `The customer: ${input.customer_profile}.`,
    input.difficulty && `Difficulty: ${input.difficulty}.`,
  ].filter(Boolean);
  const result = await streamChat(db, {
    messages: [
      { role: 'system', content: coachInstructions({ product, chunks: [], rolePlay: rolePlay?.instructions }) },
      { role: 'user', content: ask.join('\n') },
    ],
    onToken: () => undefined,
    signal: caller.signal,
    log: { user_id: caller.userId, purpose: 'quick_action.scenario' },
  });
  return { action_id: 'scenario', product: summary(product), scenario: result.text, route: result.route, coaching_report_id: input.coaching_report_id ?? null };
}

export interface QuickActionCaller {
  userId: number;
  /** Admins may build a scenario from any rep's coaching report; others from their own. */
  role?: 'employee' | 'admin';
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
