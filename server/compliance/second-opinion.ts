// The optional second opinion of a chat model on an inspection (docs/api/compliance.md, "Second opinion"): after the
// deterministic check, the model is asked for JSON findings on the rules that need judgement. Its findings are kept
// apart and never change a deterministic outcome; each must name a rule of the set and quote segments of the call,
// or it is left out. No route: `unavailable`; the parameter compliance_second_opinion off: `off`; a failed call or a
// reply that is not the JSON asked for: `failed` (the inspection is stored all the same).
import { z } from 'zod';
import type { Db } from '../db/knex.js';
import type { ComplianceRule, SecondOpinion, SecondOpinionFinding } from '../../contract/compliance.js';
import { AppError } from '../http/errors.js';
import { streamChat } from '../ai/chat-client.js';
import { chatRouteOrder } from '../ai/chat-route-order.js';
import { parseJsonObject } from '../coaching/model-analysis.js';
import { readConfigValue } from '../system/config.service.js';
import type { CallSegment } from './engine.js';
import type { StoredResult } from './compliance.repository.js';

export const SECOND_OPINION_PURPOSE = 'compliance.second_opinion';
const MAX_TRANSCRIPT_CHARS = 16_000;
const MAX_EVIDENCE = 5;

/** The reply asked for, as a JSON schema (enforced while sampling on a local route). */
export const SECOND_OPINION_SCHEMA = {
  type: 'object',
  properties: {
    findings: {
      type: 'array',
      maxItems: 20,
      items: {
        type: 'object',
        properties: {
          rule_key: { type: 'string', maxLength: 64 },
          outcome: { enum: ['pass', 'fail'] },
          reason: { type: 'string', maxLength: 1000 },
          segments: { type: 'array', items: { type: 'integer' }, maxItems: MAX_EVIDENCE },
        },
        required: ['rule_key', 'outcome', 'reason', 'segments'],
      },
    },
  },
  required: ['findings'],
} as const;

const Reply = z.object({ findings: z.array(z.unknown()) });
const Finding = z.object({
  rule_key: z.string().trim().min(1).max(64),
  outcome: z.enum(['pass', 'fail']),
  reason: z.string().trim().max(1000).catch(''),
  segments: z.array(z.number().int().nonnegative()).catch([]),
});

export interface SecondOpinionInput {
  rules: ComplianceRule[];
  results: StoredResult[];
  segments: CallSegment[];
  repSpeaker: string;
  userId: number;
}

function prompt(input: SecondOpinionInput): string {
  const rules = input.rules.map((r) => {
    const verdict = input.results.find((v) => v.rule_key === r.key)?.outcome ?? 'not_applicable';
    return `- ${r.key}（${r.name['zh-CN']}）：${r.explanation['zh-CN']}（规则检查结果：${verdict}）`;
  });
  let used = 0;
  const lines: string[] = [];
  for (const s of input.segments) {
    const line = `[${s.index}] ${s.speaker === input.repSpeaker ? '销售' : '客户'}：${s.text}`;
    if (used + line.length > MAX_TRANSCRIPT_CHARS) break;
    used += line.length;
    lines.push(line);
  }
  return [
    '以下是一通销售电话的转写（方括号内为片段编号）和合规规则。关键词规则已逐条检查；请按语义复核每条规则，',
    '只对你能从转写中找到依据的规则给出结论，并引用片段编号。',
    '只回答 JSON：{"findings":[{"rule_key":"规则键","outcome":"pass|fail","reason":"理由","segments":[片段编号]}]}',
    '',
    '规则：',
    ...rules,
    '',
    '转写：',
    ...lines,
  ].join('\n');
}

/** The reply's findings that name a rule of the set and quote segments of the call; throws when it is not the JSON asked for. */
export function readFindings(input: SecondOpinionInput, reply: string): SecondOpinionFinding[] {
  const parsed = Reply.safeParse(parseJsonObject(reply));
  if (!parsed.success) throw new AppError(502, 'model_reply_invalid', 'The model did not answer with the JSON asked for');
  const keys = new Set(input.rules.map((r) => r.key));
  const byIndex = new Map(input.segments.map((s) => [s.index, s]));
  const findings: SecondOpinionFinding[] = [];
  for (const raw of parsed.data.findings) {
    const item = Finding.safeParse(raw);
    if (!item.success || !keys.has(item.data.rule_key) || findings.some((f) => f.rule_key === item.data.rule_key)) continue;
    const evidence = [...new Set(item.data.segments)]
      .filter((i) => byIndex.has(i))
      .slice(0, MAX_EVIDENCE)
      .map((i) => {
        const s = byIndex.get(i)!;
        return { segment_index: s.index, start: s.start, end: s.end, speaker: s.speaker, quote: s.text, audio_url: null };
      });
    if (!evidence.length) continue;
    findings.push({ rule_key: item.data.rule_key, outcome: item.data.outcome, reason: item.data.reason, evidence });
  }
  return findings;
}

export async function secondOpinion(db: Db, input: SecondOpinionInput): Promise<SecondOpinion> {
  if (!(await readConfigValue<boolean>(db, 'compliance_second_opinion'))) return { status: 'off', findings: [] };
  if (!(await chatRouteOrder(db)).length) return { status: 'unavailable', findings: [] };
  try {
    const result = await streamChat(db, {
      messages: [
        { role: 'system', content: 'You are a compliance reviewer of sales calls at a financial firm. You report only what the transcript shows. You answer with JSON only.' },
        { role: 'user', content: prompt(input) },
      ],
      onToken: () => undefined,
      jsonSchema: SECOND_OPINION_SCHEMA,
      log: { user_id: input.userId, purpose: SECOND_OPINION_PURPOSE },
    });
    return { status: 'complete', findings: readFindings(input, result.text) };
  } catch (err) {
    if (err instanceof AppError && err.code === 'no_model_route') return { status: 'unavailable', findings: [] };
    return { status: 'failed', findings: [] };
  }
}
