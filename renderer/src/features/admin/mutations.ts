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
  department_id: number | null;
  position_id: number | null;
}

export interface UserChange {
  role?: Role;
  status?: UserStatus;
  full_name?: string;
  password?: string;
  department_id?: number | null;
  position_id?: number | null;
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
    mutationFn: ({ id, change }: { id: number; change: UserChange }) => api.put<User>(`/system/users/${id}`, change),
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
