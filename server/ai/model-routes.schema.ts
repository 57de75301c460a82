import { z } from 'zod';
import { AiProviders, AiRouteKinds } from '../../contract/ai.js';
import { Paging } from '../http/validate.js';

const httpUrl = z
  .string()
  .trim()
  .max(500)
  .refine((v) => /^https?:\/\/\S+$/i.test(v) && URL.canParse(v), 'must be an http(s) URL')
  .transform((v) => v.replace(/\/+$/, ''));

const timeoutMs = z.number().int().min(100).max(600_000).nullable();

const RouteFields = z.object({
  name: z.string().trim().min(1).max(100),
  kind: z.enum(AiRouteKinds),
  provider: z.enum(AiProviders),
  base_url: z.union([z.literal(''), httpUrl]),
  api_key: z.string().max(500),
  model: z.string().trim().min(1).max(200),
  priority: z.number().int().min(0).max(1_000_000),
  enabled: z.boolean(),
  is_local: z.boolean(),
  connect_timeout_ms: timeoutMs,
  idle_timeout_ms: timeoutMs,
});

/** A local-whisper route runs whisper.cpp on this machine: it has no URL (an empty base_url is stored). */
export const urlNeeded = (v: { provider?: string; base_url?: string }) => v.provider === 'local-whisper' || (v.base_url !== undefined && v.base_url !== '');
export const urlIssue = { message: 'required (only local-whisper routes have no URL)', path: ['base_url'] };

/** The chat client speaks only the OpenAI-compatible protocol. */
export const chatNeedsOpenAi = (v: { kind?: string; provider?: string }) => v.kind !== 'chat' || v.provider === undefined || v.provider === 'openai-compatible';
export const chatProviderIssue = { message: 'chat routes must use provider openai-compatible', path: ['provider'] };

export const RouteCreate = RouteFields.partial({ base_url: true, api_key: true, priority: true, enabled: true, is_local: true, connect_timeout_ms: true, idle_timeout_ms: true })
  .strict()
  .refine(chatNeedsOpenAi, chatProviderIssue)
  .refine(urlNeeded, urlIssue);
export type RouteCreateInput = z.output<typeof RouteCreate>;

export const RouteUpdate = RouteFields.partial().strict();
export type RouteUpdateInput = z.output<typeof RouteUpdate>;

export const RouteListQuery = z.object({ kind: z.enum(AiRouteKinds).optional() });

export const CallListQuery = Paging.extend({
  status: z.enum(['ok', 'failed', 'aborted']).optional(),
  specialist_key: z.string().trim().min(1).optional(),
  user_id: z.coerce.number().int().positive().optional(),
  route_id: z.coerce.number().int().positive().optional(),
});
export type CallListFilter = z.output<typeof CallListQuery>;
