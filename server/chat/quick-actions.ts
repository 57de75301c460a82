// Quick actions of the coach: a commission calculation, a product comparison, a practice scenario.
import type { Db } from '../db/knex.js';
import { AiErrorCode, QuickActionIds, type QuickAction, type QuickActionId, type QuickActionResult, type ScenarioResult } from '../../contract/ai.js';
import { badRequest } from '../http/errors.js';
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
