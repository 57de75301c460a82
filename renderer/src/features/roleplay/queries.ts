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

/** A turn typed (`text`) or spoken (a recording, transcribed by the server). */
export function useTakeTurn(sessionId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (turn: string | Blob) => api.post<TurnReply>(`/roleplay/sessions/${sessionId}/turns`, typeof turn === 'string' ? { text: turn } : spokenForm(turn)),
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

function spokenForm(recording: Blob): FormData {
  const form = new FormData();
  form.append('audio', recording, recording.type.includes('ogg') ? 'turn.ogg' : 'turn.webm');
  form.append('language', 'zh');
  return form;
}
