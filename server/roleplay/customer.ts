// The customer a rep talks to: scripted (the scenario's objections in order, then its closing line), or played by
// the chat model from a prompt that carries the persona, the product and its approved facts, and the objections.
import type { ChatMessage } from '../ai/llm.js';
import type { Scenario, Turn } from '../../contract/roleplay.js';

/** The scripted customer's answer to the rep's `repTurnCount`-th turn (1-based). */
export function scriptedReply(scenario: Pick<Scenario, 'objections' | 'closing'>, repTurnCount: number): string {
  return scenario.objections[repTurnCount - 1] ?? scenario.closing;
}

export interface PromptProduct {
  name: string;
  risk_level: string;
  facts: string[];
}

const RISK_WORDS: Record<string, string> = { C1: '保守型', C2: '谨慎型', C3: '稳健型', C4: '积极型', C5: '激进型' };

/** The system message that puts the model in the customer's place. */
export function customerPrompt(scenario: Scenario, product: PromptProduct | null): string {
  const { persona } = scenario;
  return [
    `你在一场销售陪练中扮演客户“${persona.name}”，和你对话的是一位正在练习的理财经理。`,
    `客户画像：${persona.profile || '（未提供）'}`,
    `风险承受能力：${persona.risk_tolerance}（${RISK_WORDS[persona.risk_tolerance] ?? ''}）。`,
    ...(product
      ? [
          `讨论的产品：「${product.name}」，风险等级 ${product.risk_level || '未标注'}。`,
          ...(product.facts.length ? ['关于该产品的已核实资料（仅供你判断经理说得对不对，不要主动背诵）：', ...product.facts.map((f) => `- ${f}`)] : []),
        ]
      : []),
    ...(scenario.objections.length ? ['按顺序、一次一个地提出下面这些顾虑，用客户自己的口吻：', ...scenario.objections.map((o, i) => `${i + 1}. ${o}`)] : []),
    `所有顾虑都得到回应后，用这句话结束对话：“${scenario.closing}”`,
    '始终保持客户身份：不要跳出角色，不要评价或指导经理，不要替经理回答；每次只说一两句口语化的话。',
    'Stay in character as the customer at all times; reply in the language the employee uses.',
  ].join('\n');
}

/** The conversation as chat messages: the customer's lines are the model's own (assistant), the rep's the user's. */
export function customerMessages(scenario: Scenario, product: PromptProduct | null, turns: Turn[]): ChatMessage[] {
  return [
    { role: 'system', content: customerPrompt(scenario, product) },
    ...turns.map((t): ChatMessage => ({ role: t.speaker === 'customer' ? 'assistant' : 'user', content: t.text })),
  ];
}
