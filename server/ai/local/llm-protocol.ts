// Messages between the server and the local chat model's worker thread (llm-worker.ts).
import type { ChatMessage } from '../llm.js';

/** Which model, and the shape of its context: a change of any of them reloads the model. */
export interface ModelLoad {
  file: string;
  contextSize: number;
  /** Generations at once (each has its own sequence of the context). */
  sequences: number;
  threads: number;
}

export interface GenerateRequest {
  type: 'generate';
  id: number;
  load: ModelLoad;
  messages: ChatMessage[];
  maxTokens: number;
  temperature: number;
  /** A JSON schema the reply must follow (enforced by a grammar while sampling). */
  jsonSchema?: object;
}

export type ToWorker = GenerateRequest | { type: 'abort'; id: number } | { type: 'unload' };

export type FromWorker =
  | { type: 'token'; id: number; text: string }
  | { type: 'done'; id: number; promptTokens: number; completionTokens: number }
  | { type: 'error'; id: number; message: string; aborted: boolean }
  /** skipped: a reply was running, so the model stayed. */
  | { type: 'unloaded'; skipped: boolean };
