import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { Scenario, Session, TurnReply } from '../../../../contract/roleplay.js';

export const roleplayKeys = {
  all: ['roleplay'] as const,
  scenarios: () => [...roleplayKeys.all, 'scenarios'] as const,
  session: (id: number) => [...roleplayKeys.all, 'session', id] as const,
};

export const roleplayQueries = {
  scenarios: () => queryOptions({ queryKey: roleplayKeys.scenarios(), queryFn: ({ signal }) => api.get<Scenario[]>('/roleplay/scenarios', { signal }) }),
  session: (id: number) => queryOptions({ queryKey: roleplayKeys.session(id), queryFn: ({ signal }) => api.get<Session>(`/roleplay/sessions/${id}`, { signal }) }),
};

export function useStartSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (scenarioId: number) => api.post<Session>('/roleplay/sessions', { scenario_id: scenarioId }),
    onSuccess: (session) => client.setQueryData(roleplayKeys.session(session.id), session),
  });
}

export function useTakeTurn(sessionId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (text: string) => api.post<TurnReply>(`/roleplay/sessions/${sessionId}/turns`, { text }),
    onSuccess: (reply) =>
      client.setQueryData<Session>(roleplayKeys.session(sessionId), (session) => session && { ...session, turns: [...session.turns, reply.rep_turn, reply.customer_turn] }),
  });
}

export function useFinish(sessionId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<Session>(`/roleplay/sessions/${sessionId}/finish`, {}),
    onSuccess: (session) => client.setQueryData(roleplayKeys.session(sessionId), session),
  });
}
