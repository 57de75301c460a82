import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { Role, SystemConfig, User, UserStatus } from '../../api/types';
import { adminKeys } from './queries';
import { companyKeys } from '../home/queries';

export interface NewUser {
  username: string;
  password: string;
  full_name: string;
  role: Role;
  department?: string;
}

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (user: NewUser) => api.post<User>('/system/users', user),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.users }),
  });
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, change }: { id: number; change: { role?: Role; status?: UserStatus } }) => api.put<User>(`/system/users/${id}`, change),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.users }),
  });
}

/** Saves parameters; the company introduction is one of them, so the home page reloads it. */
export function useSaveConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (configs: Record<string, unknown>) => api.put<SystemConfig>('/system/config', { configs }),
    onSuccess: (saved) => {
      queryClient.setQueryData(adminKeys.config, saved);
      return queryClient.invalidateQueries({ queryKey: companyKeys.all });
    },
  });
}
