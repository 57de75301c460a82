// The part of a coaching report that needs the chat model: the customer's objections and how the rep answered,
// product statements contradicted by approved knowledge that code cannot check, and suggestions to practise. One
// call; the reply is JSON, and every item must point at segments of the right speaker and at a chunk offered or a
// product field, or it is left out (counted in dropped_items): nothing in a report rests on nothing.
import { z } from 'zod';
import type { Db } from '../db/knex.js';
import type { Product } from '../../contract/catalog.js';
import { MAX_SEGMENTS_PER_FINDING, type Citation, type CoachingModelRun, type Objection } from '../../contract/coaching.js';
import { AppError } from '../http/errors.js';
import { noModelRoute, streamChat } from '../ai/chat-client.js';
import { chatRouteOrder } from '../ai/chat-route-order.js';
import { describeProduct } from '../chat/coach-prompt.js';
import { chunkCitation, fieldCitation, segmentRef, type CheckedFact, type ChunkSnapshot, type LabelledSegment } from './fact-checks.js';

/** Transcript characters sent to the model; a longer call is cut at a segment boundary (reported). */
export const MAX_TRANSCRIPT_CHARS = 16_000;
const MAX_CHUNK_CHARS = 1_200;

export const MODEL_PURPOSE = 'coaching.call_analysis';

export interface ModelAnalysisInput {
  segments: LabelledSegment[];
  repSpeaker: string;
  product: Product | null;
  /** What the model is offered to cite; loaded only when a chat route exists. */
  chunks: () => Promise<ChunkSnapshot[]>;
  /** Checked in code already: the model is told not to report them again. */
  known: CheckedFact[];
  userId: number;
  signal?: AbortSignal;
}

export interface ModelPractice {
  title: string;
  detail: string;
  segments: LabelledSegment[];
}

export interface ModelAnalysis {
  run: CoachingModelRun;
  objections: Omit<Objection, 'id'>[];
  facts: CheckedFact[];
  practice: ModelPractice[];
}

const index = z.number().int().nonnegative();
const text = (max: number) => z.string().trim().max(max).catch('');
const indexes = z.array(z.unknown()).catch([]).transform((list) => list.filter((v): v is number => index.safeParse(v).success));

const ObjectionItem = z.object({
  customer_segments: indexes,
  summary: z.string().trim().min(1).max(500),
  rep_segments: indexes.optional().default([]),
  handling: z.enum(['answered', 'partly_answered', 'not_answered']).catch('partly_answered'),
  assessment: text(2000).optional().default(''),
  better_answer: text(2000).optional().default(''),
  chunk_ids: indexes.optional().default([]),
});

const ContradictionItem = z.object({
  rep_segment: index,
  claim: text(1000).optional().default(''),
  stated: text(500).optional().default(''),
  correct: z.string().trim().min(1).max(1000),
  chunk_id: index.nullable().optional(),
  field: z.string().trim().max(200).nullable().optional(),
  explanation: text(2000).optional().default(''),
});

const PracticeItem = z.object({ title: z.string().trim().min(1).max(200), detail: text(2000).optional().default(''), segments: indexes.optional().default([]) });

const Reply = z.object({
  objections: z.array(z.unknown()).catch([]).optional().default([]),
  contradictions: z.array(z.unknown()).catch([]).optional().default([]),
  practice: z.array(z.unknown()).catch([]).optional().default([]),
});

const segmentList = { type: 'array', items: { type: 'integer' }, maxItems: MAX_SEGMENTS_PER_FINDING } as const;
const bounded = (maxLength: number) => ({ type: 'string', maxLength }) as const;

/**
 * The reply's JSON as a schema, enforced while sampling when the route runs a local model (a grammar): a small model
 * then still answers with valid findings. Lists and texts are bounded so the reply always ends.
 */
export const REPLY_SCHEMA = {
  type: 'object',
  properties: {
    objections: {
      type: 'array',
      maxItems: 10,
      items: {
        type: 'object',
        properties: {
          customer_segments: segmentList,
          summary: bounded(500),
          rep_segments: segmentList,
          handling: { enum: ['answered', 'partly_answered', 'not_answered'] },
          assessment: bounded(1000),
          better_answer: bounded(1000),
          chunk_ids: segmentList,
        },
      },
    },
    contradictions: {
      type: 'array',
      maxItems: 10,
      items: {
        type: 'object',
        properties: {
          rep_segment: { type: 'integer' },
          claim: bounded(500),
          stated: bounded(300),
          correct: bounded(500),
          chunk_id: { type: ['integer', 'null'] },
          field: { type: ['string', 'null'], maxLength: 100 },
          explanation: bounded(1000),
        },
      },
    },
    practice: { type: 'array', maxItems: 3, items: { type: 'object', properties: { title: bounded(200), detail: bounded(1000), segments: segmentList } } },
  },
} as const;

const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, '0')}`;

/** The transcript lines sent, and whether the end was cut. */
function transcriptLines(input: ModelAnalysisInput): { lines: string[]; truncated: boolean } {
  const lines: string[] = [];
  let used = 0;
  for (const s of input.segments) {
    const line = `[${s.index}] ${clock(s.start)}–${clock(s.end)} ${s.speaker} (${s.speaker === input.repSpeaker ? 'REP' : 'CUSTOMER'}): ${s.text.trim()}`;
    if (used + line.length > MAX_TRANSCRIPT_CHARS) return { lines, truncated: true };
    lines.push(line);
    used += line.length + 1;
  }
  return { lines, truncated: false };
}

const clip = (value: string, max: number) => (value.length > max ? `${value.slice(0, max)}…` : value);

function prompt(input: ModelAnalysisInput, lines: string[], chunks: ChunkSnapshot[]): string {
  const known = input.known.map((f) => `- ${f.label}: the rep said ${f.stated} (segments ${f.segments.map((s) => s.index).join(', ')}); approved value ${f.correct}`);
  return [
    'Review this recorded sales call for coaching. Each transcript line is: [segment index] start–end, speaker label, role (REP or CUSTOMER), text.',
    '',
    ...lines,
    '',
    input.product ? `Product discussed:\n${describeProduct(input.product)}` : 'No product was identified for this call.',
    '',
    chunks.length
      ? `Approved knowledge excerpts (cite them by chunk id):\n${chunks.map((c) => `[chunk ${c.id}] ${c.source.title}\n${clip(c.content, MAX_CHUNK_CHARS)}`).join('\n\n')}`
      : 'No approved knowledge excerpts are available.',
    '',
    ...(known.length ? ['Already checked in code (do not report these again):', ...known, ''] : []),
    'Reply with one JSON object and nothing else:',
    '{"objections":[{"customer_segments":[3],"summary":"…","rep_segments":[4],"handling":"answered|partly_answered|not_answered","assessment":"…","better_answer":"…","chunk_ids":[12]}],',
    ' "contradictions":[{"rep_segment":5,"claim":"the rep\'s words","stated":"what the rep said","correct":"what the approved knowledge says","chunk_id":12,"field":null,"explanation":"…"}],',
    ' "practice":[{"title":"…","detail":"…","segments":[5]}]}',
    'Rules: objections are concerns or push-back raised by the CUSTOMER, with the indexes of their segments, and the REP segments that answered them.',
    'contradictions are product facts the REP stated that the excerpts or the product fields contradict; each cites a chunk_id from the excerpts or a product field name (commission_rate, risk_level, summary, description, or an attribute name); leave out anything you cannot cite.',
    'practice: at most three concrete things the rep should practise, each pointing at segments.',
    'Write summary, assessment, better_answer, explanation, title and detail in Simplified Chinese. Use empty lists when there is nothing.',
  ].join('\n');
}

/** The reply as JSON: the text itself, a fenced block, or the outermost {…} in prose; undefined when none parses. */
export function parseJsonObject(reply: string): unknown {
  const fenced = /```[A-Za-z]*[^\S\n]*\n([\s\S]*?)\n?```/.exec(reply);
  const body = (fenced ? fenced[1]! : reply).trim();
  const start = body.indexOf('{');
  const end = body.lastIndexOf('}');
  if (start < 0 || end <= start) return undefined;
  try {
    return JSON.parse(body.slice(start, end + 1));
  } catch {
    return undefined;
  }
}

/** A product field a model item may cite, with its value; undefined for a name that is not a field. */
function productField(product: Product, name: string): Citation | undefined {
  const key = name.trim().replace(/^attributes\./, '');
  const fields: Record<string, [string, string | number | null]> = {
    name: ['名称', product.name],
    code: ['编码', product.code],
    category: ['类别', product.category],
    summary: ['简介', product.summary],
    description: ['描述', clip(product.description, 500)],
    risk_level: ['风险等级', product.risk_level],
    commission_rate: ['佣金比例', product.commission_rate],
  };
  const known = fields[key];
  if (known && known[1] !== null && known[1] !== '') return fieldCitation(product, key, known[0], known[1]);
  const attribute = Object.keys(product.attributes).find((k) => k.toLowerCase() === key.toLowerCase());
  return attribute ? fieldCitation(product, `attributes.${attribute}`, attribute, product.attributes[attribute]!) : undefined;
}

function readReply(input: ModelAnalysisInput, offered: ChunkSnapshot[], reply: unknown): Omit<ModelAnalysis, 'run'> & { dropped: number } {
  const parsed = Reply.safeParse(reply);
  if (!parsed.success) throw new AppError(502, 'model_reply_invalid', 'The model did not answer with the JSON asked for');
  const byIndex = new Map(input.segments.map((s) => [s.index, s]));
  const isRep = (i: number) => byIndex.get(i)?.speaker === input.repSpeaker;
  const isCustomer = (i: number) => byIndex.has(i) && !isRep(i);
  const chunks = new Map(offered.map((c) => [c.id, c]));
  let dropped = 0;

  const objections: Omit<Objection, 'id'>[] = [];
  for (const raw of parsed.data.objections) {
    const item = ObjectionItem.safeParse(raw);
    const customer = item.success ? item.data.customer_segments.filter(isCustomer) : [];
    if (!item.success || !customer.length) {
      dropped++;
      continue;
    }
    const o = item.data;
    objections.push({
      summary: o.summary,
      customer: customer.slice(0, MAX_SEGMENTS_PER_FINDING).map((i) => segmentRef(byIndex.get(i)!)),
      rep_response: o.rep_segments.filter(isRep).slice(0, MAX_SEGMENTS_PER_FINDING).map((i) => segmentRef(byIndex.get(i)!)),
      handling: o.handling,
      assessment: o.assessment,
      better_answer: o.better_answer,
      citations: o.chunk_ids.filter((id) => chunks.has(id)).map((id) => chunkCitation(chunks.get(id)!)),
    });
  }

  const facts: CheckedFact[] = [];
  for (const raw of parsed.data.contradictions) {
    const item = ContradictionItem.safeParse(raw);
    const c = item.success ? item.data : undefined;
    const chunk = c?.chunk_id != null ? chunks.get(c.chunk_id) : undefined;
    const field = c?.field && input.product ? productField(input.product, c.field) : undefined;
    const repeated = c && input.known.some((k) => k.segments.some((s) => s.index === c.rep_segment) && field?.type === 'product_field' && k.field === field.field);
    if (!c || !isRep(c.rep_segment) || (!chunk && !field) || repeated) {
      dropped++;
      continue;
    }
    const segment = byIndex.get(c.rep_segment)!;
    facts.push({
      method: 'model',
      field: null,
      label: field?.type === 'product_field' ? field.label : '产品说法',
      claim: c.claim || segment.text.trim(),
      stated: c.stated || c.claim || segment.text.trim(),
      correct: c.correct,
      verdict: 'misstated',
      explanation: c.explanation || `已审核的资料为：${c.correct}`,
      segments: [segmentRef(segment)],
      occurrences: 1,
      citations: [...(chunk ? [chunkCitation(chunk)] : []), ...(field ? [field] : [])],
    });
  }

  const practice: ModelPractice[] = [];
  for (const raw of parsed.data.practice) {
    const item = PracticeItem.safeParse(raw);
    if (!item.success) {
      dropped++;
      continue;
    }
    practice.push({ title: item.data.title, detail: item.data.detail, segments: item.data.segments.filter((i) => byIndex.has(i)).slice(0, MAX_SEGMENTS_PER_FINDING).map((i) => byIndex.get(i)!) });
  }
  return { objections, facts, practice, dropped };
}

const EMPTY = { objections: [], facts: [], practice: [] };

/**
 * Runs the model part. Never throws for a missing or failing model: the run says `unavailable` (no chat route) or
 * `failed` (every route failed, the reply broke off or was not the JSON asked for), and the deterministic report
 * stands on its own. Only the caller's abort is rethrown.
 */
export async function analyseWithModel(db: Db, input: ModelAnalysisInput): Promise<ModelAnalysis> {
  const { lines, truncated } = transcriptLines(input);
  const base = { route: null, dropped_items: 0, transcript_truncated: truncated };
  const unavailable = (err: AppError): ModelAnalysis => ({ run: { ...base, status: 'unavailable', error: { code: err.code, message: err.message } }, ...EMPTY });
  if (!(await chatRouteOrder(db)).length) return unavailable(noModelRoute());
  const chunks = await input.chunks();
  let result;
  try {
    result = await streamChat(db, {
      messages: [
        { role: 'system', content: 'You are the sales coach of a company training platform. You report only what the transcript and the approved knowledge show. You answer with JSON only.' },
        { role: 'user', content: prompt(input, lines, chunks) },
      ],
      jsonSchema: REPLY_SCHEMA,
      onToken: () => undefined,
      signal: input.signal,
      log: { user_id: input.userId, purpose: MODEL_PURPOSE },
    });
  } catch (err) {
    if (input.signal?.aborted || !(err instanceof AppError)) throw err;
    if (err.code === 'no_model_route') return unavailable(err);
    return { run: { ...base, status: 'failed', error: { code: err.code, message: err.message } }, ...EMPTY };
  }
  const route = result.route;
  try {
    const { dropped, ...analysis } = readReply(input, chunks, parseJsonObject(result.text));
    return { run: { ...base, route, status: 'complete', error: null, dropped_items: dropped }, ...analysis };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return { run: { ...base, route, status: 'failed', error: { code: err.code, message: err.message } }, ...EMPTY };
  }
}
