import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { Department, Position, PositionKnowledge } from '../../api/types';
import { orgKeys } from './queries';
import { adminKeys } from '../admin/queries';

export interface DepartmentInput {
  name: string;
  description: string;
}

export interface PositionInput {
  name: string;
  description: string;
}

export type KnowledgeInput = Pick<PositionKnowledge, 'title' | 'kind' | 'ref_id' | 'is_mandatory'>;

/** One change to the organisation: afterwards every org list reloads, and the users (whose department text may have changed). */
function useOrgMutation<V, R>(mutationFn: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: orgKeys.all }), queryClient.invalidateQueries({ queryKey: adminKeys.users })]),
  });
}

export const useCreateDepartment = () => useOrgMutation((input: DepartmentInput) => api.post<Department>('/system/departments', input));
export const useUpdateDepartment = () => useOrgMutation(({ id, ...input }: DepartmentInput & { id: number }) => api.put<Department>(`/system/departments/${id}`, input));
export const useDeleteDepartment = () => useOrgMutation((id: number) => api.delete<Department>(`/system/departments/${id}`));

export const useCreatePosition = () => useOrgMutation((input: PositionInput) => api.post<Position>('/system/positions', input));
export const useUpdatePosition = () => useOrgMutation(({ id, ...input }: PositionInput & { id: number }) => api.put<Position>(`/system/positions/${id}`, input));
export const useDeletePosition = () => useOrgMutation((id: number) => api.delete<Position>(`/system/positions/${id}`));

export const useAddKnowledge = () =>
  useOrgMutation(({ positionId, item }: { positionId: number; item: KnowledgeInput }) => api.post<PositionKnowledge>(`/system/positions/${positionId}/knowledge`, item));
export const useUpdateKnowledge = () =>
  useOrgMutation(({ item, change }: { item: PositionKnowledge; change: Partial<KnowledgeInput> }) =>
    api.put<PositionKnowledge>(`/system/positions/${item.position_id}/knowledge/${item.id}`, change),
  );
export const useDeleteKnowledge = () => useOrgMutation((item: PositionKnowledge) => api.delete<PositionKnowledge>(`/system/positions/${item.position_id}/knowledge/${item.id}`));
