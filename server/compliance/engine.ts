// The deterministic inspection of one call against one compiled rule set. Only the rep's speech counts for and
// against the rep (a customer asking "保本吗？" is no violation); the customer's speech is read for the answer to a
// question the rep asked and for the customer's stated risk type. Pure functions: the same call, rules and product
// give the same results.
import type { ComplianceRule, InspectionOutcome, InspectionResult, Severity } from '../../contract/compliance.js';
import { highestLevelFor } from '../../contract/compliance.js';
import { CLAUSE, SENTENCE, normalizeAll, normalizeText } from './normalize.js';
import { compileNegations, compilePhrases } from './phrases.js';

export interface CallSegment {
  /** Position in the transcription's segments. */
  index: number;
  start: number;
  end: number;
  speaker: string;
  text: string;
}

export interface CallProduct {
  name: string;
  code: string | null;
  /** R1–R5, or '' when not set. */
  risk_level: string;
  cooling_off_days: number;
}

export interface CompiledRule {
  rule: ComplianceRule;
  phrases: RegExp | null;
  negations: RegExp | null;
}

export interface CompiledRuleSet {
  rules: CompiledRule[];
}

export function compileRuleSet(rules: ComplianceRule[]): CompiledRuleSet {
  return {
    rules: rules.map((rule) => ({ rule, phrases: compilePhrases(rule.phrases), negations: rule.kind === 'forbidden' ? compileNegations(rule.negations) : null })),
  };
}

/** Weight of a rule in the score. */
export const SEVERITY_WEIGHT: Record<Severity, number> = { critical: 3, major: 2, minor: 1 };

/** The normalised text of a speaker's segments joined by sentence marks, with where each segment starts. */
class Joined {
  readonly text: string;
  private readonly starts: number[] = [];

  constructor(readonly segments: { seg: CallSegment; norm: string }[]) {
    let text = '';
    for (const { norm } of segments) {
      this.starts.push(text.length);
      text += norm + SENTENCE;
    }
    this.text = text;
  }

  /** The segment a position of the joined text falls in. */
  segmentAt(offset: number): CallSegment {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return this.segments[lo]!.seg;
  }
}

export interface CallText {
  segments: CallSegment[];
  /** The rep's segments. */
  rep: Joined;
  /** Everyone's segments. */
  all: Joined;
}

/** Normalises the call once for every rule. */
export function prepareCall(segments: CallSegment[], repSpeaker: string): CallText {
  const normalized = normalizeAll(segments.map((s) => s.text));
  const rep = new Joined(segments.flatMap((seg, i) => (seg.speaker === repSpeaker ? [{ seg, norm: normalized[i]! }] : [])));
  const all = new Joined(segments.map((seg, i) => ({ seg, norm: normalized[i]! })));
  return { segments, rep, all };
}

/** A negation just before the match in the same clause, or a question repeated back ("保本吗"). */
function negated(text: string, at: number, end: number, negations: RegExp | null): boolean {
  if (/^[吗么嘛]/.test(text.slice(end, end + 1))) return true;
  if (!negations) return false;
  const clauseStart = Math.max(text.lastIndexOf(SENTENCE, at - 1), text.lastIndexOf(CLAUSE, at - 1)) + 1;
  return negations.test(text.slice(Math.max(clauseStart, at - 8), at));
}

interface Hit {
  segment: CallSegment;
}

/** Every segment of the rep's where a phrase matches (counted once per segment), in call order. */
function repHits(call: CallText, compiled: CompiledRule): Hit[] {
  const { phrases, negations } = compiled;
  if (!phrases) return [];
  const hits: Hit[] = [];
  const seen = new Set<number>();
  const text = call.rep.text;
  phrases.lastIndex = 0;
  for (let m = phrases.exec(text); m; m = phrases.exec(text)) {
    if (m[0] === '') {
      phrases.lastIndex++;
      continue;
    }
    if (compiled.rule.kind === 'forbidden' && negated(text, m.index, m.index + m[0].length, negations)) continue;
    const segment = call.rep.segmentAt(m.index);
    if (!seen.has(segment.index)) {
      seen.add(segment.index);
      hits.push({ segment });
    }
  }
  return hits;
}

/** The first segment (anyone's) naming the product, by name or code. */
function productNamedAt(call: CallText, product: CallProduct | null): number | null {
  if (!product) return null;
  const names = [product.name, product.code].filter((n): n is string => !!n && n.trim().length >= 2).map(normalizeText).filter(Boolean);
  const offsets = names.map((n) => call.all.text.indexOf(n)).filter((at) => at >= 0);
  return offsets.length ? call.all.segmentAt(Math.min(...offsets)).start : null;
}

const TYPE_NAMES: Record<string, string> = { 保守: 'C1', 谨慎: 'C2', 稳健: 'C3', 积极: 'C4', 激进: 'C5' };
const CUSTOMER_TYPE = /(?<![a-z0-9])c([1-5])(?![0-9])|(保守|谨慎|稳健|积极|激进)型/g;

/** The customer's risk type as last stated in the call (the customer's words first, else the rep's), with where. */
export function customerRiskType(call: CallText, repSpeaker: string): { type: string; segment: CallSegment } | null {
  let best: { type: string; segment: CallSegment; customer: boolean } | null = null;
  const text = call.all.text;
  CUSTOMER_TYPE.lastIndex = 0;
  for (let m = CUSTOMER_TYPE.exec(text); m; m = CUSTOMER_TYPE.exec(text)) {
    const segment = call.all.segmentAt(m.index);
    const found = { type: m[1] ? `C${m[1]}` : TYPE_NAMES[m[2]!]!, segment, customer: segment.speaker !== repSpeaker };
    // In call order: a later statement replaces an earlier one of the same side; the customer's own words win.
    if (!best || found.customer || !best.customer) best = found;
  }
  return best && { type: best.type, segment: best.segment };
}

const RISK_WORDS: Record<string, string> = {
  低风险: 'R1', 中低风险: 'R2', 中风险: 'R3', 中高风险: 'R4', 高风险: 'R5',
  LOW: 'R1', 'MEDIUM-LOW': 'R2', MEDIUM: 'R3', 'MEDIUM-HIGH': 'R4', HIGH: 'R5',
};

/**
 * The product's level as R1–R5, or null: read generously, as product sources were written before levels were
 * checked (r3, PR3, R 3, 中风险, low / medium-low / medium / medium-high / high, any case, spaces or _ for -).
 */
export function riskLevelOf(value: string): string | null {
  const text = value.normalize('NFKC').trim().toUpperCase().replace(/[\s_-]+/g, '-');
  const r = /^P?R-?([1-5])$/.exec(text);
  if (r) return `R${r[1]}`;
  return RISK_WORDS[text] ?? RISK_WORDS[text.replace(/-/g, '')] ?? null;
}

export interface RuleVerdict {
  rule: ComplianceRule;
  outcome: InspectionOutcome;
  segments: CallSegment[];
  note: string;
}

function windowEnd(rule: ComplianceRule, namedAt: number | null): number {
  let end = Infinity;
  if (rule.window?.within_seconds !== undefined) end = Math.min(end, rule.window.within_seconds);
  if (rule.window?.before_product_named && namedAt !== null) end = Math.min(end, namedAt);
  return end;
}

function judge(compiled: CompiledRule, call: CallText, repSpeaker: string, product: CallProduct | null, namedAt: number | null): RuleVerdict {
  const { rule } = compiled;
  const verdict = (outcome: InspectionOutcome, segments: CallSegment[], note: string): RuleVerdict => ({ rule, outcome, segments, note });
  if (rule.condition === 'cooling_off' && !(product && product.cooling_off_days > 0)) {
    return verdict('not_applicable', [], product ? 'the product has no cooling-off period' : 'no product');
  }
  switch (rule.kind) {
    case 'forbidden': {
      const hits = repHits(call, compiled);
      return hits.length ? verdict('fail', hits.map((h) => h.segment), 'said by the rep') : verdict('pass', [], 'never said by the rep');
    }
    case 'required': {
      const end = windowEnd(rule, namedAt);
      const hits = repHits(call, compiled).filter((h) => h.segment.start < end);
      return hits.length ? verdict('pass', hits.slice(0, 3).map((h) => h.segment), 'said by the rep') : verdict('fail', [], end === Infinity ? 'not said by the rep' : `not said by the rep before ${Math.round(end)} s`);
    }
    case 'asked': {
      const end = windowEnd(rule, namedAt);
      const hit = repHits(call, compiled).find((h) => h.segment.start < end);
      if (!hit) return verdict('fail', [], end === Infinity ? 'not asked by the rep' : `not asked by the rep before ${Math.round(end)} s`);
      const position = call.segments.indexOf(hit.segment);
      const answer = call.segments.slice(position + 1).find((s) => s.speaker !== repSpeaker);
      return verdict('pass', answer ? [hit.segment, answer] : [hit.segment], answer ? 'asked; the customer’s answer quoted' : 'asked; no answer from the customer');
    }
    case 'risk_match': {
      const level = product ? riskLevelOf(product.risk_level) : null;
      if (!product) return verdict('not_applicable', [], 'no product');
      if (!level) return verdict('not_applicable', [], 'the product has no risk level');
      const customer = customerRiskType(call, repSpeaker);
      // Not asking is risk_tolerance_asked's failure; without a stated type there is nothing to match against.
      if (!customer) return verdict('not_applicable', [], `product ${level}; the customer’s risk type was not established in the call`);
      const highest = highestLevelFor(customer.type)!;
      return level <= highest
        ? verdict('pass', [customer.segment], `customer ${customer.type} (up to ${highest}), product ${level}`)
        : verdict('fail', [customer.segment], `customer ${customer.type} (up to ${highest}), product ${level}`);
    }
  }
}

export interface CallInspection {
  verdicts: RuleVerdict[];
  score: number;
  customerRisk: string | null;
}

/** Inspects the call; `segments` are the speaker-labelled segments in call order. */
export function inspectCall(rules: CompiledRuleSet, segments: CallSegment[], repSpeaker: string, product: CallProduct | null): CallInspection {
  const call = prepareCall(segments, repSpeaker);
  const namedAt = productNamedAt(call, product);
  const verdicts = rules.rules.map((r) => judge(r, call, repSpeaker, product, namedAt));
  let applicable = 0;
  let passed = 0;
  for (const v of verdicts) {
    if (v.outcome === 'not_applicable') continue;
    applicable += SEVERITY_WEIGHT[v.rule.severity];
    if (v.outcome === 'pass') passed += SEVERITY_WEIGHT[v.rule.severity];
  }
  return { verdicts, score: applicable ? Math.round((100 * passed) / applicable) : 100, customerRisk: customerRiskType(call, repSpeaker)?.type ?? null };
}

/** A verdict as the API shows it (evidence without audio links yet). */
export const toResult = (v: RuleVerdict): Omit<InspectionResult, 'evidence'> & { evidence: Omit<InspectionResult['evidence'][number], 'audio_url'>[] } => ({
  rule_key: v.rule.key,
  name: v.rule.name,
  kind: v.rule.kind,
  outcome: v.outcome,
  severity: v.rule.severity,
  note: v.note,
  evidence: v.segments.map((s) => ({ segment_index: s.index, start: s.start, end: s.end, speaker: s.speaker, quote: s.text })),
});
