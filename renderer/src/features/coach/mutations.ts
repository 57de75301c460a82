import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { QuickActionId, QuickActionResult } from '../../api/types';
import { coachKeys } from './queries';

export function useClearHistory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete<{ deleted: number }>('/ai-chat/history'),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: coachKeys.history() }),
  });
}

export function useQuickAction() {
  return useMutation({ mutationFn: ({ id, params }: { id: QuickActionId; params: Record<string, unknown> }) => api.post<QuickActionResult>('/ai-chat/quick-action', { action_id: id, params }) });
}
