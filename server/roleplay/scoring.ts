// The deterministic half of a role-play report: the rep's turns read by the compliance engine (flags on one turn,
// results on the whole conversation), criteria met by a rule passing or a phrase said, and the score. Evidence
// always quotes a rep turn verbatim. Pure functions.
import type { CallProduct, CompiledRuleSet, RuleVerdict } from '../compliance/engine.js';
import { inspectCall, toResult, type CallSegment } from '../compliance/engine.js';
import { normalizeText } from '../compliance/normalize.js';
import { compilePhrases } from '../compliance/phrases.js';
import type { Criterion, CriterionResult, Evidence, RoleplayComplianceResult, Turn, TurnFlag } from '../../contract/roleplay.js';

export const REP = 'rep';

const segmentOf = (turn: Turn): CallSegment => ({ index: turn.index, start: turn.index, end: turn.index, speaker: turn.speaker, text: turn.text });

/** The forbidden rules one rep turn breaks on its own (no_guarantee on "保本保收益"). */
export function turnFlags(rules: CompiledRuleSet, turn: Turn, product: CallProduct | null): TurnFlag[] {
  const { verdicts } = inspectCall(rules, [segmentOf(turn)], REP, product);
  return verdicts.filter((v) => v.rule.kind === 'forbidden' && v.outcome === 'fail').map((v) => ({ rule_key: v.rule.key, quote: turn.text }));
}

export interface ConversationCheck {
  verdicts: RuleVerdict[];
  results: RoleplayComplianceResult[];
}

/** The whole conversation inspected like a call: the rep's turns against the rules, the customer's read for context. */
export function inspectConversation(rules: CompiledRuleSet, turns: Turn[], product: CallProduct | null): ConversationCheck {
  const { verdicts } = inspectCall(rules, turns.map(segmentOf), REP, product);
  return { verdicts, results: verdicts.map(toResult) };
}

/** The rep turns whose words match one of the phrases, each quoted whole. */
export function phraseEvidence(phrases: string[], repTurns: Turn[]): Evidence[] {
  const regex = compilePhrases(phrases);
  if (!regex) return [];
  return repTurns.flatMap((turn) => {
    regex.lastIndex = 0;
    return regex.test(normalizeText(turn.text)) ? [{ turn_index: turn.index, quote: turn.text }] : [];
  });
}

/** A model's quote kept only when it is a verbatim part of the rep turn it names (or, unnamed, of any rep turn). */
export function verbatimEvidence(quotes: { turn_index?: number; quote: string }[], repTurns: Turn[]): Evidence[] {
  const kept: Evidence[] = [];
  for (const { turn_index, quote } of quotes) {
    const trimmed = quote.trim();
    if (!trimmed) continue;
    const turn = repTurns.find((t) => (turn_index === undefined || t.index === turn_index) && t.text.includes(trimmed));
    if (turn && !kept.some((e) => e.turn_index === turn.index && e.quote === trimmed)) kept.push({ turn_index: turn.index, quote: trimmed });
  }
  return kept;
}

/** What the model judged of a criterion described in words. */
export interface ModelJudgement {
  key: string;
  met: boolean;
  quotes: { turn_index?: number; quote: string }[];
}

/** Each criterion met or missed, with the rep's words that show it. */
export function judgeCriteria(criteria: Criterion[], turns: Turn[], verdicts: RuleVerdict[], judged: ModelJudgement[]): CriterionResult[] {
  const repTurns = turns.filter((t) => t.speaker === REP);
  const repIndexes = new Set(repTurns.map((t) => t.index));
  return criteria.map((c) => {
    const base = { key: c.key, label: c.label, weight: c.weight };
    if (c.rule_key) {
      const verdict = verdicts.find((v) => v.rule.key === c.rule_key);
      if (verdict?.outcome === 'pass') {
        const evidence = verdict.segments.filter((s) => repIndexes.has(s.index)).map((s) => ({ turn_index: s.index, quote: s.text }));
        return { ...base, met: true, evidence, judged_by: 'rule' as const };
      }
    }
    if (c.phrases?.length) {
      const evidence = phraseEvidence(c.phrases, repTurns);
      if (evidence.length) return { ...base, met: true, evidence, judged_by: 'phrases' as const };
    }
    if (c.description) {
      const judgement = judged.find((j) => j.key === c.key);
      const evidence = judgement?.met ? verbatimEvidence(judgement.quotes, repTurns) : [];
      // A judgement without a single verbatim quote is not evidence of anything the rep said.
      if (evidence.length) return { ...base, met: true, evidence, judged_by: 'model' as const };
      if (judgement) return { ...base, met: false, evidence: [], judged_by: 'model' as const };
    }
    return { ...base, met: false, evidence: [], judged_by: c.rule_key ? ('rule' as const) : c.phrases?.length ? ('phrases' as const) : ('none' as const) };
  });
}

/** The weighted share of criteria met, 0–100. */
export function scoreOf(results: CriterionResult[]): number {
  const total = results.reduce((n, r) => n + r.weight, 0);
  if (!total) return 0;
  return Math.round((100 * results.reduce((n, r) => n + (r.met ? r.weight : 0), 0)) / total);
}
