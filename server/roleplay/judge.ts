// Criteria described in words, judged by the chat model at the end of a session. The model only proposes: a
// criterion counts as met when a quote it gives is a verbatim part of one of the rep's turns (scoring.ts).
import { z } from 'zod';
import type { Db } from '../db/knex.js';
import { streamChat } from '../ai/chat-client.js';
import { parseJsonObject } from '../coaching/model-analysis.js';
import type { Criterion, Turn } from '../../contract/roleplay.js';
import type { ModelJudgement } from './scoring.js';

export const JUDGE_PURPOSE = 'roleplay_judge';

const JUDGE_SCHEMA = {
  type: 'object',
  properties: {
    criteria: {
      type: 'array',
      items: {
        type: 'object',
        properties: { key: { type: 'string' }, met: { type: 'boolean' }, quotes: { type: 'array', items: { type: 'object', properties: { turn_index: { type: 'integer' }, quote: { type: 'string' } }, required: ['quote'] } } },
        required: ['key', 'met', 'quotes'],
      },
    },
  },
  required: ['criteria'],
};

const Reply = z.object({
  criteria: z.array(
    z.object({
      key: z.string(),
      met: z.boolean(),
      quotes: z.array(z.object({ turn_index: z.number().int().optional(), quote: z.string() })).default([]),
    }),
  ),
});

function judgePrompt(criteria: Criterion[], turns: Turn[]): string {
  return [
    '下面是一场销售陪练的对话记录（rep 为理财经理，customer 为客户），以及需要评判的标准。',
    '对每条标准，判断理财经理是否做到；做到时，从理财经理（rep）的发言中原文摘录能证明的句子，并注明所在轮次 turn_index。不要改写摘录。',
    '标准：',
    ...criteria.map((c) => `- key=${c.key}：${c.label}。${c.description}`),
    '对话：',
    ...turns.map((t) => `[${t.index}] ${t.speaker}: ${t.text}`),
    '只回答 JSON：{"criteria":[{"key":"…","met":true,"quotes":[{"turn_index":1,"quote":"…"}]}]}',
  ].join('\n');
}

/** The model's judgements of the described criteria; [] when there are none to judge or the model failed. */
export async function judgeByModel(db: Db, userId: number, criteria: Criterion[], turns: Turn[]): Promise<ModelJudgement[]> {
  const described = criteria.filter((c) => c.description);
  if (!described.length) return [];
  try {
    const result = await streamChat(db, {
      messages: [
        { role: 'system', content: 'You assess a sales practice conversation against a rubric. You quote the employee verbatim. You answer with JSON only.' },
        { role: 'user', content: judgePrompt(described, turns) },
      ],
      onToken: () => undefined,
      jsonSchema: JUDGE_SCHEMA,
      log: { user_id: userId, purpose: JUDGE_PURPOSE },
    });
    const parsed = Reply.safeParse(parseJsonObject(result.text));
    return parsed.success ? parsed.data.criteria : [];
  } catch {
    return [];
  }
}
