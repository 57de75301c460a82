/**
 * Compliance inspection of sales calls (质检): every speaker-labelled call is checked against the firm's
 * sales-conduct rules, offline and deterministically; a failed critical rule becomes practice for the rep and a
 * notice for the admins. Rule sets are versioned: an inspection names the version it used and keeps its results.
 */

export const ComplianceErrorCode = {
  /** The rep's speaker could not be told (no `rep` label, no coaching report, no rep_speaker given); details.speakers. */
  repUnknown: 'compliance.rep_unknown',
  /** rep_speaker is not a speaker of the call (details.speakers lists them). */
  unknownSpeaker: 'compliance.unknown_speaker',
  /** The revision asked for does not exist (details.revisions). */
  unknownRevision: 'compliance.unknown_revision',
  /** A rule's phrase is not a valid pattern, or two rules share a key (details name the rule). */
  invalidRule: 'compliance.invalid_rule',
  /** The default rule set cannot be deleted (it applies when no other does). */
  defaultRuleSet: 'compliance.default_rule_set',
} as const;

export const RuleKinds = ['required', 'forbidden', 'asked', 'risk_match'] as const;
export type RuleKind = (typeof RuleKinds)[number];

export const Severities = ['critical', 'major', 'minor'] as const;
export type Severity = (typeof Severities)[number];

export const RuleConditions = ['cooling_off'] as const;
/** `cooling_off`: the rule applies only to a product with a cooling-off period (`cooling_off_days` > 0). */
export type RuleCondition = (typeof RuleConditions)[number];

export interface LocalizedText {
  'zh-CN': string;
  en: string;
}

/** Where in the call a `required` or `asked` rule must be met; both given: the earlier end counts. */
export interface RuleWindow {
  /** Only what the rep says in the first N seconds of the call counts. */
  within_seconds?: number;
  /** Only what the rep says before the product is first named (by anyone) counts. */
  before_product_named?: boolean;
}

export interface ComplianceRule {
  /** Stable within a rule set: `identity`, `no_guarantee`, … (lowercase letters, digits, `_`). */
  key: string;
  name: LocalizedText;
  explanation: LocalizedText;
  kind: RuleKind;
  /**
   * What counts as saying it. Each phrase is text matched after normalisation (full-width → half-width, Chinese
   * numerals → Arabic, case, spaces and punctuation ignored), with three marks: `*` any few words between (up to 12
   * characters), `(a|b)` one of the alternatives, `(…)?` optional words. Unused by `risk_match`.
   */
  phrases: string[];
  /**
   * `forbidden` only: a phrase preceded by one of these (within the same sentence, at most 3 characters before) is
   * not counted (不保本 is not the promise 保本). Omitted: the built-in negations (不, 没有, 无法, 不能, 不会, 并非, 不是, 非, 未, 别).
   */
  negations?: string[];
  window?: RuleWindow | null;
  severity: Severity;
  /** When the rule applies at all; null: every call in the rule set's scope. */
  condition?: RuleCondition | null;
}

export const RuleSetScopes = ['all', 'category', 'product'] as const;
export type RuleSetScope = (typeof RuleSetScopes)[number];

export interface RuleSet {
  id: number;
  name: string;
  /** `all` calls, a product `category` (scope_value: the category), or one `product` (scope_value: its id). */
  scope: RuleSetScope;
  scope_value: string | null;
  /** Grows by one with every edit; inspections name the version they used. */
  version: number;
  /** The shipped default (scope `all`); editable, not deletable. */
  is_default: boolean;
  status: 'active' | 'inactive';
  rules: ComplianceRule[];
  created_at: string;
  updated_at: string;
}

export type RuleSetSummary = Omit<RuleSet, 'rules'> & { rule_count: number };

export type InspectionOutcome = 'pass' | 'fail' | 'not_applicable';

/** A transcript segment a result rests on, verbatim, with a link that plays the call from it. */
export interface Evidence {
  segment_index: number;
  start: number;
  end: number;
  speaker: string;
  quote: string;
  /** `/api/compliance/inspections/{id}/recording?token=…#t=start,end`; null when the audio is not kept or the reader may not listen. */
  audio_url: string | null;
}

export interface InspectionResult {
  rule_key: string;
  name: LocalizedText;
  kind: RuleKind;
  outcome: InspectionOutcome;
  severity: Severity;
  evidence: Evidence[];
  /** Why, in a few words (for risk_match: the levels compared). */
  note: string;
}

/** A finding of the optional model review: shown apart, never changes the deterministic outcome. */
export interface SecondOpinionFinding {
  rule_key: string;
  outcome: 'pass' | 'fail';
  reason: string;
  evidence: Evidence[];
}

export interface SecondOpinion {
  status: 'complete' | 'unavailable' | 'failed' | 'off';
  findings: SecondOpinionFinding[];
}

export interface InspectionUser {
  id: number;
  username: string;
  full_name: string;
  department: string;
}

export interface Inspection {
  id: number;
  transcription_id: number;
  /** 1: the transcription as it was first stored; later numbers: edited revisions. */
  revision: number;
  rule_set_id: number;
  rule_set_version: number;
  /** 0–100: the severity-weighted share of applicable rules passed. */
  score: number;
  /** `fail` when any rule failed. */
  outcome: 'pass' | 'fail';
  critical_failures: number;
  user: InspectionUser;
  filename: string;
  rep_speaker: string;
  product: { id: number; code: string | null; name: string; risk_level: string } | null;
  /** The customer's risk type read from the call (C1–C5), or null when it was not stated. */
  customer_risk: string | null;
  /** `auto` after a transcription, `manual` on request. */
  trigger: 'auto' | 'manual';
  results: InspectionResult[];
  second_opinion: SecondOpinion;
  created_at: string;
  /** GET /compliance/inspections/{id}: the rule set's name, and whether this reader may listen and why not. */
  rule_set_name?: string;
  recording?: { available: boolean; reason: 'not_kept' | 'admin_listen_off' | 'elsewhere' | null };
}

export type InspectionSummary = Omit<Inspection, 'results' | 'second_opinion'> & { failed_rules: string[] };

export interface ComplianceRate {
  /** The rule key, department, product id ('' for calls with no product) or month. */
  key: string;
  /** What to show: the product's name for products, else the key. */
  label: string;
  inspections: number;
  passed: number;
  /** passed / inspections, 0–1. */
  pass_rate: number;
}

export interface ComplianceStats {
  total: number;
  passed: number;
  pass_rate: number;
  /** Per rule: applicable inspections and how many passed it. */
  by_rule: ComplianceRate[];
  by_department: ComplianceRate[];
  by_product: ComplianceRate[];
  /** `YYYY-MM`, oldest first. */
  by_month: ComplianceRate[];
}

/** The product risk levels (R1 lowest) and the customer risk types (C1 most cautious). */
export const RiskLevels = ['R1', 'R2', 'R3', 'R4', 'R5'] as const;
export const CustomerRiskTypes = ['C1', 'C2', 'C3', 'C4', 'C5'] as const;
/** A customer of type Cn may be offered products up to Rn (docs/api/compliance.md). */
export const highestLevelFor = (customer: string): string | null => (/^C[1-5]$/.test(customer) ? `R${customer[1]}` : null);

/** What an inspection keeps as JSON, locally and on the wire: results without audio links (signed per reader). */
export interface InspectionBody {
  product: Inspection['product'];
  results: (Omit<InspectionResult, 'evidence'> & { evidence: Omit<Evidence, 'audio_url'>[] })[];
  second_opinion: SecondOpinion;
}
