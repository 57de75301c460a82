/** AI model routes, the model-call log and the coach chat (spec 4.8, 4.11, part 6). */

export const AiRouteKinds = ['chat', 'audio'] as const;
export type AiRouteKind = (typeof AiRouteKinds)[number];

/**
 * Chat routes speak `openai-compatible` or run a GGUF model file on this computer (`local-llama`); audio routes
 * speak `openai-compatible` or run whisper.cpp here (`local-whisper`).
 */
export const AiProviders = ['openai-compatible', 'local-whisper', 'local-llama'] as const;
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
  /** Sent to enrolled branch laptops by the central server, key included (docs/sync.md); false by default. */
  for_branches: boolean;
  /** null: the client default (10,000 ms to response headers, 60,000 ms between stream pieces). */
  connect_timeout_ms: number | null;
  idle_timeout_ms: number | null;
  created_at: string;
  updated_at: string;
  /** GET /api/ai/routes only, for `local-llama` routes: whether the model file can run on this computer. */
  local_model?: LocalRouteStatus;
}

/** Whether a local-llama route's model file can run here, and what it needs. */
export interface LocalRouteStatus {
  /** The file the route's `model` names, in DATA_DIR/models or resources/models. */
  present: boolean;
  /** Present, a GGUF chat model whose header reads, and the memory it needs is free. */
  loadable: boolean;
  /** Estimated bytes of memory for the weights and one context of every generation slot; null when unknown. */
  memory_bytes: number | null;
  /** Bytes of memory free for it now (free memory, plus what the model takes when it is loaded already). */
  memory_available_bytes: number;
  /** The model is in memory now (it is unloaded after local_llm_idle_unload_seconds without use). */
  loaded: boolean;
  /** Why it cannot run; null when loadable. */
  reason: string | null;
}

/** A GGUF chat model file in the model folders (GET /api/ai/models), described from its metadata. */
export interface ChatModelFile {
  /** The file name: what a local-llama route's `model` names. */
  name: string;
  location: 'resources' | 'data';
  size: number;
  sha256: string;
  modified_at: string;
  /** general.architecture, e.g. `llama`, `qwen2`; null when the header does not read. */
  architecture: string | null;
  /** general.name, when the file has one. */
  model_name: string | null;
  /** The context length it was trained for, in tokens. */
  context_length: number | null;
  /** The weights' type (general.file_type), e.g. `Q4_K_M`, `F16`. */
  quantization: string | null;
  parameters: number | null;
  /** Why the file cannot be used as a chat model; null when its header reads. */
  error: string | null;
}

/** The route that answered a model call; `local` when it ran on this computer. */
export interface AnsweringRoute {
  id: number | null;
  name: string;
  model: string;
  local: boolean;
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

/**
 * One `data:` event of a chat stream (part 6); `error` ends a stream that failed after it started. `queued` comes
 * before any text while the reply waits for the local model (position 1 runs next); `done` says which route answered.
 */
export type ChatStreamEvent =
  | { type: 'queued'; position: number }
  | { type: 'text'; content: string }
  | { type: 'done'; route?: AnsweringRoute }
  | { type: 'error'; message: string };

export const AiErrorCode = {
  noModelRoute: 'no_model_route',
  modelRouteFailed: 'model_route_failed',
  modelStreamFailed: 'model_stream_failed',
  unknownQuickAction: 'unknown_quick_action',
  commissionRateMissing: 'commission_rate_missing',
  routeTestUnsupported: 'ai.route_test_unsupported',
} as const;

/** POST /api/ai/routes/{id}/test: whether the route's endpoint answered, and how fast (to its first reply piece). */
export interface RouteTestResult {
  ok: boolean;
  latency_ms: number;
  /** The endpoint's failure in words (HTTP status and reason, timeout, refused connection); null when ok. */
  error: string | null;
}

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
  route: AnsweringRoute;
  /** The coaching report whose real objections seeded it (params.coaching_report_id), else null. */
  coaching_report_id: number | null;
}

export type QuickActionResult = CommissionResult | CompareResult | ScenarioResult;
