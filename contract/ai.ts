/** AI model routes, the model-call log and the coach chat (spec 4.8, 4.11, part 6). */

export const AiRouteKinds = ['chat', 'audio'] as const;
export type AiRouteKind = (typeof AiRouteKinds)[number];

/** Chat routes speak only `openai-compatible`; audio routes may also name a local speech-to-text server. */
export const AiProviders = ['openai-compatible', 'local-whisper'] as const;
export type AiProvider = (typeof AiProviders)[number];

export interface AiRoute {
  id: number;
  name: string;
  kind: AiRouteKind;
  provider: AiProvider;
  base_url: string;
  /** Masked like secret system parameters (`****` + last four characters of keys longer than 8); '' when none. */
  api_key: string;
  has_api_key: boolean;
  model: string;
  /** Lower numbers are tried first. */
  priority: number;
  enabled: boolean;
  is_local: boolean;
  /** null: the client default (10,000 ms to response headers, 60,000 ms between stream pieces). */
  connect_timeout_ms: number | null;
  idle_timeout_ms: number | null;
  created_at: string;
  updated_at: string;
}

export type ModelCallStatus = 'ok' | 'failed' | 'aborted';

/** One attempt on one route; a fallback produces two rows (attempt 1 failed, attempt 2). */
export interface ModelCall {
  id: number;
  /** null for the system-config route or a route deleted since. */
  route_id: number | null;
  route_name: string;
  model: string;
  user_id: number | null;
  specialist_key: string | null;
  task_id: number | null;
  purpose: string;
  status: ModelCallStatus;
  error: string;
  attempt: number;
  latency_ms: number;
  first_token_ms: number | null;
  prompt_chars: number;
  reply_chars: number;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  created_at: string;
}

/** One `data:` event of a chat stream (part 6); `error` ends a stream that failed after it started. */
export type ChatStreamEvent = { type: 'text'; content: string } | { type: 'done' } | { type: 'error'; message: string };

export const AiErrorCode = {
  noModelRoute: 'no_model_route',
  modelRouteFailed: 'model_route_failed',
  modelStreamFailed: 'model_stream_failed',
  unknownQuickAction: 'unknown_quick_action',
  commissionRateMissing: 'commission_rate_missing',
} as const;

export interface ChatHistoryMessage {
  id: number;
  role: 'user' | 'assistant';
  content: string;
  product_id: number | null;
  created_at: string;
}

export const QuickActionIds = ['scenario', 'commission', 'compare'] as const;
export type QuickActionId = (typeof QuickActionIds)[number];

export interface QuickAction {
  id: QuickActionId;
  label: string;
}

export interface QuickActionProduct {
  id: number;
  code: string | null;
  name: string;
}

/** Without an amount in the request, a worked example for COMMISSION_REFERENCE_AMOUNT. */
export const COMMISSION_REFERENCE_AMOUNT = 10_000;

export interface CommissionResult {
  action_id: 'commission';
  product: QuickActionProduct;
  /** The requested amount, or COMMISSION_REFERENCE_AMOUNT when none was given. */
  amount: number;
  /** false: `amount` is the reference amount of a worked example. */
  amount_given: boolean;
  /** The product's `currency` attribute; null when it has none. */
  currency: string | null;
  /** Percent, from the product. */
  commission_rate: number;
  /** amount × commission_rate / 100, rounded to cents. */
  commission: number;
  formula: string;
  /** One readable sentence with the rate and the calculation; says when the amount is a reference amount. */
  answer: string;
}

export interface CompareRow {
  field: string;
  label: string;
  /** One value per product, in the order of `products`; null when the product has no value. */
  values: (string | number | null)[];
}

export interface CompareResult {
  action_id: 'compare';
  products: QuickActionProduct[];
  rows: CompareRow[];
  /** For a single product: which peers were picked, or that none exists; null for explicit product_codes. */
  note: string | null;
}

export interface ScenarioResult {
  action_id: 'scenario';
  product: QuickActionProduct;
  scenario: string;
  route: { id: number | null; name: string; model: string };
  /** The coaching report whose real objections seeded it (params.coaching_report_id), else null. */
  coaching_report_id: number | null;
}

export type QuickActionResult = CommissionResult | CompareResult | ScenarioResult;
