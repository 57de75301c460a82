import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { Scenario, ScenarioStats, SessionSummary } from '../../../../contract/roleplay.js';
import { fromPage, PAGE_SIZE } from '../../components/list/list-page';
import type { Page } from '../../api/types';
import { roleplayKeys } from './queries';

export type ScenarioInput = Omit<Scenario, 'id' | 'created_at' | 'updated_at'>;

/** The admin's side of role-play: every scenario, the criteria's rates, everyone's sessions. */
export const roleplayAdminQueries = {
  scenarios: () => queryOptions({ queryKey: [...roleplayKeys.scenarios(), 'all'], queryFn: ({ signal }) => api.get<Scenario[]>('/roleplay/scenarios', { query: { status: 'all' }, signal }) }),
  stats: (id: number) => queryOptions({ queryKey: [...roleplayKeys.all, 'stats', id], queryFn: ({ signal }) => api.get<ScenarioStats>(`/roleplay/scenarios/${id}/stats`, { signal }) }),
  sessions: (filter: { user_id: number | null; scenario_id: number | null; page: number }) =>
    queryOptions({
      queryKey: [...roleplayKeys.all, 'sessions', filter],
      queryFn: async ({ signal }) =>
        fromPage(await api.get<Page<SessionSummary>>('/roleplay/sessions', { query: { user_id: filter.user_id, scenario_id: filter.scenario_id, page: filter.page, size: PAGE_SIZE }, signal })),
      placeholderData: keepPreviousData,
    }),
};

export function useSaveScenario() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, fields }: { id?: number; fields: ScenarioInput }) => (id ? api.put<Scenario>(`/roleplay/scenarios/${id}`, fields) : api.post<Scenario>('/roleplay/scenarios', fields)),
    onSuccess: () => client.invalidateQueries({ queryKey: roleplayKeys.scenarios() }),
  });
}

export function useSetScenarioStatus() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, active }: { id: number; active: boolean }) => (active ? api.put<Scenario>(`/roleplay/scenarios/${id}`, { status: 'active' }) : api.delete<Scenario>(`/roleplay/scenarios/${id}`)),
    onSuccess: () => client.invalidateQueries({ queryKey: roleplayKeys.scenarios() }),
  });
}
