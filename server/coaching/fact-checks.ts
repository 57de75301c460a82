// Deterministic checks of what the rep said about numeric and structured product facts (commission rate, risk
// level, attributes with a number and a unit) against the product's fields and the approved chunks about the
// product. A fact is checked only when the rep's sentence names it and carries a value of the same kind; the correct
// value comes from the product field, else from what the chunks say. Pure functions.
import type { Product } from '../../contract/catalog.js';
import { MAX_SEGMENTS_PER_FINDING, type Citation, type FactCheck, type SegmentRef } from '../../contract/coaching.js';
import type { KnowledgeChunkSourceType } from '../../contract/knowledge.js';
import { quantities, riskLevels, sameValue, sentences, type Quantity } from './quantities.js';
import type { NameIndex } from './names.js';

/** A speaker-labelled segment with its position in the transcription. */
export interface LabelledSegment {
  index: number;
  start: number;
  end: number;
  speaker: string;
  text: string;
}

export interface ChunkSnapshot {
  id: number;
  source: { type: KnowledgeChunkSourceType; id: number; title: string };
  content: string;
}

export type CheckedFact = Omit<FactCheck, 'id'>;

/** As stored; audio_url is filled in for each reader. */
export const segmentRef = (s: LabelledSegment): SegmentRef => ({ index: s.index, start: s.start, end: s.end, speaker: s.speaker, quote: s.text.trim(), audio_url: null });

export const chunkCitation = (c: ChunkSnapshot): Citation => ({ type: 'chunk', chunk_id: c.id, source: c.source, text: c.content });

export const fieldCitation = (p: Product, field: string, label: string, value: string | number): Citation => ({
  type: 'product_field',
  product_id: p.id,
  product_name: p.name,
  field,
  label,
  value,
});

interface FactRule {
  field: string;
  label: string;
  keywords: RegExp;
  /** Values of this fact's kind in a sentence. */
  values(sentence: string): Quantity[];
  /** The product's own value, when it has one. */
  truth: { value: number; display: string | number } | null;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The facts of this product that can be checked in code. */
export function factRules(product: Product): FactRule[] {
  const rules: FactRule[] = [
    {
      field: 'commission_rate',
      label: '佣金比例',
      keywords: /commission|佣金|返佣|提成/i,
      values: (s) => quantities(s).filter((q) => q.unit === '%'),
      truth: product.commission_rate === null ? null : { value: product.commission_rate, display: `${product.commission_rate}%` },
    },
  ];
  const risk = riskLevels(product.risk_level)[0];
  rules.push({
    field: 'risk_level',
    label: '风险等级',
    keywords: /risk|风险/i,
    values: riskLevels,
    truth: risk ? { value: risk.value, display: product.risk_level } : null,
  });
  for (const [key, raw] of Object.entries(product.attributes)) {
    const value = quantities(raw)[0];
    if (!value || value.unit === '' || key.trim().length < 2) continue;
    rules.push({
      field: `attributes.${key}`,
      label: key,
      keywords: new RegExp(escape(key.trim()), 'i'),
      values: (s) => quantities(s).filter((q) => q.unit === value.unit),
      truth: { value: value.value, display: raw.trim() },
    });
  }
  return rules;
}

/** The value a sentence gives the fact: the nearest after the keyword, else the nearest before; undefined when none. */
function statedValue(rule: FactRule, sentence: string): Quantity | undefined {
  const keyword = rule.keywords.exec(sentence);
  if (!keyword) return undefined;
  const values = rule.values(sentence);
  return values.find((v) => v.at >= keyword.index) ?? values.filter((v) => v.at < keyword.index).at(-1);
}

export interface ProductNames {
  product: Product;
  /** The names and codes of this and every other active product: a sentence naming another one is about that one. */
  index: NameIndex;
}

/** A chunk's heading trail (its first line, `A > B > C`, before a blank line) and the text after it. */
function splitTrail(content: string): { heading: string; body: string } {
  const match = /^([^\n]*)\n\n([\s\S]*)$/.exec(content);
  if (!match) return { heading: '', body: content };
  return { heading: match[1]!.split(' > ').at(-1) ?? '', body: match[2]! };
}

/**
 * The chunk sentences about the product. A sentence is about the product when it names it; when it names another
 * product it is not; otherwise the section's own heading decides, then the chunk's text (a handbook whose title
 * names one product must not make every section about that product).
 */
function sentencesAbout(chunks: ChunkSnapshot[], { product, index }: ProductNames): { chunk: ChunkSnapshot; sentence: string }[] {
  const found: { chunk: ChunkSnapshot; sentence: string }[] = [];
  for (const chunk of chunks) {
    const { heading, body } = splitTrail(chunk.content);
    const inHeading = index.mentions(heading, product.id);
    const inBody = index.mentions(body, product.id);
    const section = inHeading.own || (!inHeading.other && inBody.own && !inBody.other);
    for (const sentence of sentences(body)) {
      const named = index.mentions(sentence, product.id);
      if (named.own || (!named.other && section)) found.push({ chunk, sentence });
    }
  }
  return found;
}

/** The most frequent value (first seen on a tie). */
function mostCommon(values: Quantity[]): Quantity | undefined {
  let best: { q: Quantity; n: number } | undefined;
  for (const q of values) {
    const n = values.filter((v) => sameValue(v.value, q.value)).length;
    if (!best || n > best.n) best = { q, n };
  }
  return best?.q;
}

function correctValue(rule: FactRule, names: ProductNames, about: { chunk: ChunkSnapshot; sentence: string }[]) {
  const claims = about.flatMap(({ chunk, sentence }) => {
    const value = statedValue(rule, sentence);
    return value ? [{ chunk, value }] : [];
  });
  const fromChunks = mostCommon(claims.map((c) => c.value));
  const value = rule.truth?.value ?? fromChunks?.value;
  if (value === undefined) return undefined;
  const display = String(rule.truth?.display ?? fromChunks!.text);
  const citations: Citation[] = [];
  if (rule.truth) citations.push(fieldCitation(names.product, rule.field, rule.label, rule.truth.display));
  const cited = new Set<number>();
  for (const claim of claims) {
    if (!sameValue(claim.value.value, value) || cited.has(claim.chunk.id)) continue;
    cited.add(claim.chunk.id);
    citations.push(chunkCitation(claim.chunk));
  }
  return { value, display, citations };
}

const sourcesText = (citations: Citation[]) =>
  citations.map((c) => (c.type === 'chunk' ? `《${c.source.title}》（知识片段 #${c.chunk_id}）` : `产品资料字段「${c.label}」`)).join('、');

/**
 * Every statement of the rep about a checkable fact of the product, merged by fact and value, with its verdict.
 * A statement whose fact has no known value (no field, no chunk) is not checked.
 */
export function checkStructuredFacts(names: ProductNames, chunks: ChunkSnapshot[], repSegments: LabelledSegment[]): CheckedFact[] {
  const facts: CheckedFact[] = [];
  const about = sentencesAbout(chunks, names);
  // A sentence naming another product (and not this one) is about that product: not checked against this one.
  const repSentences = repSegments.flatMap((segment) =>
    sentences(segment.text).flatMap((sentence) => {
      const named = names.index.mentions(sentence, names.product.id);
      return named.other && !named.own ? [] : [{ segment, sentence }];
    }),
  );
  for (const rule of factRules(names.product)) {
    const statements = repSentences.flatMap(({ segment, sentence }) => {
      const stated = statedValue(rule, sentence);
      return stated ? [{ segment, sentence, stated }] : [];
    });
    if (!statements.length) continue;
    const correct = correctValue(rule, names, about);
    if (!correct) continue;
    for (const { segment, sentence, stated } of statements) {
      const same = facts.find((f) => f.field === rule.field && f.stated === stated.text);
      if (same) {
        same.occurrences++;
        if (same.segments.length < MAX_SEGMENTS_PER_FINDING && !same.segments.some((s) => s.index === segment.index)) same.segments.push(segmentRef(segment));
        continue;
      }
      const misstated = !sameValue(stated.value, correct.value);
      facts.push({
        method: 'deterministic',
        field: rule.field,
        label: rule.label,
        claim: sentence,
        stated: stated.text,
        correct: correct.display,
        verdict: misstated ? 'misstated' : 'consistent',
        explanation: misstated
          ? `通话中说「${names.product.name}」的${rule.label}是 ${stated.text}，已审核的资料为 ${correct.display}（依据：${sourcesText(correct.citations)}）。`
          : `与已审核的资料一致：${rule.label} ${correct.display}（依据：${sourcesText(correct.citations)}）。`,
        segments: [segmentRef(segment)],
        occurrences: 1,
        citations: correct.citations,
      });
    }
  }
  return facts;
}
