import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { KnowledgeApproveResult, KnowledgeRejectResult, KnowledgeScanResponse } from '../../api/types';
import { knowledgeKeys } from './queries';

export function useScanKnowledge() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<KnowledgeScanResponse>('/knowledge/scan'),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: knowledgeKeys.all }),
  });
}

/** Approve (reason null) or reject with a reason. */
export function useAuditKnowledge() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: number; reason: string | null }) =>
      api.post<KnowledgeApproveResult | KnowledgeRejectResult>(`/knowledge/audit/${id}`, reason === null ? { action: 'approve' } : { action: 'reject', reject_reason: reason }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: knowledgeKeys.all }),
  });
}
