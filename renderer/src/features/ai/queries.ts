import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { AiRoute, ChatModelFile, Skill, Specialist, XApp } from '../../api/types';
import type { ModelShelfUi } from '../speech/mutations';
import { pagedArrayQuery } from '../../components/list/paged-query';

/** A search (name, model or key) and a page of an admin list. */
export interface AiListFilter {
  q: string;
  page: number;
}

export type DefinitionKind = 'skill' | 'xapp';
export type Definition = Skill | XApp;

/** Where each kind of definition lives on the server. */
export const DEFINITION_PATHS: Record<DefinitionKind, string> = { skill: '/skills', xapp: '/xapps' };

export const aiKeys = {
  all: ['ai'] as const,
  routes: () => [...aiKeys.all, 'routes'] as const,
  chatRoutes: () => [...aiKeys.routes(), 'chat'] as const,
  audioRoutes: () => [...aiKeys.routes(), 'audio'] as const,
  chatRouteList: (filter: AiListFilter) => [...aiKeys.chatRoutes(), filter] as const,
  specialists: () => [...aiKeys.all, 'specialists'] as const,
  specialistList: (filter: AiListFilter) => [...aiKeys.specialists(), filter] as const,
  definitions: (kind: DefinitionKind) => [...aiKeys.all, 'definitions', kind] as const,
  definitionList: (kind: DefinitionKind, filter: AiListFilter) => [...aiKeys.definitions(kind), filter] as const,
  chatModels: () => [...aiKeys.all, 'models'] as const,
};

/** The GGUF chat model files: a change refreshes them and the routes (whose local status depends on them). */
export const chatModelShelf: ModelShelfUi = { path: '/ai/models', destination: 'chat_model', invalidate: aiKeys.all };

export const aiQueries = {
  /** A page of the chat routes whose name or model contains filter.q, by priority. */
  chatRoutes: (filter: AiListFilter) => pagedArrayQuery<AiRoute>('/ai/routes', aiKeys.chatRouteList(filter), filter.page, { kind: 'chat', q: filter.q }),
  /** A page of the specialists an admin manages (active and inactive; built-in system ones are not listed) whose key or name contains filter.q. */
  specialists: (filter: AiListFilter) => pagedArrayQuery<Specialist>('/specialists', aiKeys.specialistList(filter), filter.page, { state: 'all', q: filter.q }),
  /** A page of the skills or apps whose key or name contains filter.q, by id. */
  definitionList: (kind: DefinitionKind, filter: AiListFilter) => pagedArrayQuery<Definition>(DEFINITION_PATHS[kind], aiKeys.definitionList(kind, filter), filter.page, { q: filter.q }),
  /** Every audio route, enabled or not, by priority (admin). */
  audioRoutes: () => queryOptions({ queryKey: aiKeys.audioRoutes(), queryFn: ({ signal }) => api.get<AiRoute[]>('/ai/routes', { signal, query: { kind: 'audio' } }) }),
  /** The GGUF files a local-model route can run. */
  chatModels: () => queryOptions({ queryKey: aiKeys.chatModels(), queryFn: ({ signal }) => api.get<ChatModelFile[]>('/ai/models', { signal }) }),
  /** Every skill or app: what a specialist's skill picker offers. */
  definitions: (kind: DefinitionKind) => queryOptions({ queryKey: aiKeys.definitions(kind), queryFn: ({ signal }) => api.get<Definition[]>(DEFINITION_PATHS[kind], { signal }) }),
};
