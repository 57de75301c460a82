import { z } from 'zod';
import { nameText } from '../http/plain-text.js';
import { AiProviders, AiRouteKinds } from '../../contract/ai.js';
import { Paging, SearchPaging } from '../http/validate.js';

const httpUrl = z
  .string()
  .trim()
  .max(500)
  .refine((v) => /^https?:\/\/\S+$/i.test(v) && URL.canParse(v), 'must be an http(s) URL')
  .transform((v) => v.replace(/\/+$/, ''));

const timeoutMs = z.number().int().min(100).max(600_000).nullable();

const RouteFields = z.object({
  name: nameText(100).min(1),
  kind: z.enum(AiRouteKinds),
  provider: z.enum(AiProviders),
  base_url: z.union([z.literal(''), httpUrl]),
  api_key: z.string().max(500),
  model: z.string().trim().min(1).max(200),
  priority: z.number().int().min(0).max(1_000_000),
  enabled: z.boolean(),
  is_local: z.boolean(),
  for_branches: z.boolean(),
  connect_timeout_ms: timeoutMs,
  idle_timeout_ms: timeoutMs,
});

/** Providers that run on this machine: they have no URL (an empty base_url is stored). */
export const LOCAL_PROVIDERS: readonly string[] = ['local-whisper', 'local-llama'];

export const urlNeeded = (v: { provider?: string; base_url?: string }) => LOCAL_PROVIDERS.includes(v.provider ?? '') || (v.base_url !== undefined && v.base_url !== '');
export const urlIssue = { message: 'required (only local-whisper and local-llama routes have no URL)', path: ['base_url'] };
/** A route that runs on this computer takes no URL (one given is refused rather than stored unused). */
export const urlAllowed = (v: { provider?: string; base_url?: string }) => !(LOCAL_PROVIDERS.includes(v.provider ?? '') && v.base_url);
export const localUrlIssue = { message: 'local-whisper and local-llama routes run on this computer and take no URL (omit it or send "")', path: ['base_url'] };

/** Chat routes speak the OpenAI-compatible protocol or run a local GGUF model; audio routes never run a chat model. */
export const chatNeedsOpenAi = (v: { kind?: string; provider?: string }) =>
  v.provider === undefined || (v.kind === 'chat' ? v.provider === 'openai-compatible' || v.provider === 'local-llama' : v.provider !== 'local-llama');
export const chatProviderIssue = { message: 'chat routes use provider openai-compatible or local-llama; local-llama is for chat routes only', path: ['provider'] };

export const RouteCreate = RouteFields.partial({ base_url: true, api_key: true, priority: true, enabled: true, is_local: true, for_branches: true, connect_timeout_ms: true, idle_timeout_ms: true })
  .strict()
  .refine(chatNeedsOpenAi, chatProviderIssue)
  .refine(urlNeeded, urlIssue)
  .refine(urlAllowed, localUrlIssue);
export type RouteCreateInput = z.output<typeof RouteCreate>;

export const RouteUpdate = RouteFields.partial().strict();
export type RouteUpdateInput = z.output<typeof RouteUpdate>;

/** `q` searches name and model; `page` + `size` page the list (all when neither is given). */
export const RouteListQuery = SearchPaging.extend({ kind: z.enum(AiRouteKinds).optional() });
export type RouteListFilter = z.output<typeof RouteListQuery>;

export const CallListQuery = Paging.extend({
  status: z.enum(['ok', 'failed', 'aborted']).optional(),
  specialist_key: z.string().trim().min(1).optional(),
  user_id: z.coerce.number().int().positive().optional(),
  route_id: z.coerce.number().int().positive().optional(),
});
export type CallListFilter = z.output<typeof CallListQuery>;
