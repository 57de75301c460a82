// AI role-play (陪练), docs/api/roleplay.md: scenarios written by the training team, sessions a rep plays against a
// scripted or model customer, and the report that scores the rep's turns against the scenario's criteria and the
// compliance rules.
import type { Evidence as CallEvidence, InspectionResult } from './compliance.js';

export const RoleplayErrorCode = {
  sessionFinished: 'roleplay.session_finished',
  scenarioInactive: 'roleplay.scenario_inactive',
  turnLimit: 'roleplay.turn_limit',
  invalidPhrase: 'roleplay.invalid_phrase',
} as const;

export const RiskTolerances = ['C1', 'C2', 'C3', 'C4', 'C5'] as const;
export type RiskTolerance = (typeof RiskTolerances)[number];

export const ScenarioStatuses = ['active', 'inactive'] as const;
export type ScenarioStatus = (typeof ScenarioStatuses)[number];

export interface Persona {
  name: string;
  profile: string;
  risk_tolerance: RiskTolerance;
}

/** Met by a compliance rule of `rule_key` passing on the rep's turns, a phrase the rep says, or the model's judgement of `description`. */
export interface Criterion {
  key: string;
  label: string;
  weight: number;
  rule_key?: string;
  phrases?: string[];
  description?: string;
}

export interface Scenario {
  id: number;
  title: string;
  product_id: number | null;
  persona: Persona;
  opening: string;
  objections: string[];
  closing: string;
  criteria: Criterion[];
  pass_score: number;
  max_turns: number;
  status: ScenarioStatus;
  created_at: string;
  updated_at: string;
}

export type Speaker = 'customer' | 'rep';
export type SessionMode = 'model' | 'scripted';
export type SessionStatus = 'active' | 'finished';

export interface TurnFlag {
  rule_key: string;
  quote: string;
}

export interface Turn {
  index: number;
  speaker: Speaker;
  text: string;
  /** The rep's turns: the compliance rules this turn breaks on its own. */
  flags?: TurnFlag[];
}

export interface Evidence {
  turn_index: number;
  quote: string;
}

export interface CriterionResult {
  key: string;
  label: string;
  weight: number;
  met: boolean;
  evidence: Evidence[];
  /** How the criterion was decided. */
  judged_by: 'rule' | 'phrases' | 'model' | 'none';
}

/** A compliance result as inspections give it; segment_index is the turn's index, start and end too (no audio). */
export type RoleplayComplianceResult = Omit<InspectionResult, 'evidence'> & { evidence: Omit<CallEvidence, 'audio_url'>[] };

export interface SessionReport {
  score: number;
  passed: boolean;
  criteria: CriterionResult[];
  compliance: { results: RoleplayComplianceResult[] };
  /** Review items made from missed criteria (spaced review practice cards). */
  practice_item_ids: number[];
}

export interface Session {
  id: number;
  scenario_id: number;
  scenario_title: string;
  user: { id: number; username: string; full_name: string | null };
  status: SessionStatus;
  mode: SessionMode;
  turns: Turn[];
  score: number | null;
  passed: boolean | null;
  criteria: CriterionResult[] | null;
  compliance: { results: RoleplayComplianceResult[] } | null;
  practice_item_ids: number[];
  created_at: string;
  finished_at: string | null;
}

export type SessionSummary = Omit<Session, 'turns' | 'criteria' | 'compliance' | 'practice_item_ids'> & { turn_count: number };

export interface TurnReply {
  rep_turn: Turn & { speaker: 'rep'; flags: TurnFlag[] };
  customer_turn: Turn & { speaker: 'customer' };
}

export interface CriterionRate {
  key: string;
  label: string;
  met: number;
  finished: number;
  rate: number;
}

export interface ScenarioStats {
  scenario_id: number;
  finished: number;
  passed: number;
  criteria: CriterionRate[];
}
