import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { CreatedDevice, SyncRunSummary, SyncStatus } from '../../api/types';
import { syncKeys } from './queries';

export interface SyncConfigInput {
  central_url: string;
  enrolment_token: string;
  ca_cert?: string;
}

export function useEnrol() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SyncConfigInput) => api.put<SyncStatus>('/sync/config', { ...input, ca_cert: input.ca_cert || null }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: syncKeys.all }),
  });
}

export function useSyncNow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<SyncRunSummary>('/sync/run'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: syncKeys.all }),
  });
}

export function useCreateDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.post<CreatedDevice>('/sync/devices', { name }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: syncKeys.devices() }),
  });
}

export function useRevokeDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<{ revoked: boolean }>(`/sync/devices/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: syncKeys.devices() }),
  });
}
