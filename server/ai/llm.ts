// Contract of the model client, implemented by the AI domain and used by the coach chat and the workbench.
import type { Db } from '../db/knex.js';
import type { AnsweringRoute } from '../../contract/ai.js';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface StreamChatOptions {
  messages: ChatMessage[];
  /** Aborts the upstream request (client disconnected). */
  signal?: AbortSignal;
  /** Called for every piece of the reply as it arrives. */
  onToken(text: string): void;
  /**
   * The reply must be JSON following this schema. A local route enforces it while sampling (a grammar); remote
   * routes are asked in the prompt, as before, and their reply is parsed leniently by the caller.
   */
  jsonSchema?: object;
  /** While the reply waits for the local model: its place in line (1 runs next). */
  onQueued?(position: number): void;
  /** Recorded with the call in the model-call log. */
  log?: { user_id?: number; specialist_key?: string; task_id?: number; purpose?: string };
}

export interface StreamChatResult {
  /** The route that answered; id null for the system-config route, local when it ran on this computer. */
  route: AnsweringRoute;
  text: string;
  /** The model_calls row of the answering attempt (null if the log write failed). */
  call_id?: number | null;
  /** 1, or 2 when the first route failed before its first token and the next one answered. */
  attempts?: number;
}

/**
 * Streams a chat completion through the enabled chat routes in priority order (the system-config route first
 * when configured). Throws AppError 500 `no_model_route` before anything is streamed when no route is usable;
 * a route that fails before its first token is retried once on the next route. Other failures: 500
 * `model_route_failed` (every route tried failed before its first token), 500 `model_stream_failed` (the reply
 * broke after onToken was called), or an AbortError when options.signal aborted.
 */
export type StreamChat = (db: Db, options: StreamChatOptions) => Promise<StreamChatResult>;
