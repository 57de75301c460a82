import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { AiRoute, AiRouteKind, RouteTestResult, Specialist } from '../../api/types';
import { speechKeys } from '../speech/queries';
import { workbenchKeys } from '../workbench/queries';
import { aiKeys, DEFINITION_PATHS, type Definition, type DefinitionKind } from './queries';

/** A change that reloads `keys` (and the workbench, whose specialist picker shows specialists) on success. */
function useAiMutation<V, R>(keys: readonly QueryKey[], mutationFn: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => Promise.all([...keys, workbenchKeys.all].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

export interface RouteInput {
  name: string;
  /** `local-llama` (chat) and `local-whisper` (audio): `model` names a model file on this computer, `base_url` is empty. */
  provider: AiRoute['provider'];
  base_url: string;
  model: string;
  /** Omitted on edit: the stored key is kept. */
  api_key?: string;
  priority: number;
  enabled: boolean;
  /** Sent to enrolled branch laptops, key included (central server). */
  for_branches?: boolean;
  connect_timeout_ms: number | null;
  idle_timeout_ms: number | null;
}

/** A change of routes reloads every route list, and the speech page's (which says what each audio route can do). */
const ROUTE_LISTS = [aiKeys.routes(), speechKeys.routes()];

export const useCreateRoute = (kind: AiRouteKind) => useAiMutation(ROUTE_LISTS, (input: RouteInput) => api.post<AiRoute>('/ai/routes', { ...input, kind }));
export const useUpdateRoute = () => useAiMutation(ROUTE_LISTS, ({ id, change }: { id: number; change: Partial<RouteInput> }) => api.put<AiRoute>(`/ai/routes/${id}`, change));
export const useDeleteRoute = () => useAiMutation(ROUTE_LISTS, (id: number) => api.delete(`/ai/routes/${id}`));
/** Asks the server to reach the route's endpoint; nothing changes, so nothing reloads. */
export const useTestRoute = () => useMutation({ mutationFn: (id: number) => api.post<RouteTestResult>(`/ai/routes/${id}/test`) });

export type SpecialistInput = Pick<Specialist, 'key' | 'name' | 'rule_file_markdown' | 'allowed_skills'> & { state: 'active' | 'inactive' };

export const useCreateSpecialist = () => useAiMutation([aiKeys.specialists()], (input: SpecialistInput) => api.post<Specialist>('/specialists', input));
export const useUpdateSpecialist = () => useAiMutation([aiKeys.specialists()], ({ id, change }: { id: number; change: Partial<SpecialistInput> }) => api.put<Specialist>(`/specialists/${id}`, change));
export const useDeleteSpecialist = () => useAiMutation([aiKeys.specialists()], (id: number) => api.delete(`/specialists/${id}`));

export type DefinitionInput = Partial<Pick<Definition, 'key' | 'name' | 'description' | 'state' | 'exposed_to_user' | 'config_json'>> & { output_kind?: 'table' | 'report'; prompt_template?: string };

export const useSaveDefinition = (kind: DefinitionKind) =>
  useAiMutation([aiKeys.definitions(kind)], ({ id, input }: { id: number | null; input: DefinitionInput }) =>
    id === null ? api.post<Definition>(DEFINITION_PATHS[kind], input) : api.put<Definition>(`${DEFINITION_PATHS[kind]}/${id}`, input),
  );
