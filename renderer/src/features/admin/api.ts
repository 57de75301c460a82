import { api } from '../../api/client';
import type { Role, SystemConfig, User, UserStatus } from '../../api/types';

export const adminKeys = {
  users: 'admin/users',
  config: 'admin/config',
};

export interface NewUser {
  username: string;
  password: string;
  full_name: string;
  role: Role;
  department?: string;
}

export const listUsers = (signal?: AbortSignal) => api.get<User[]>('/system/users', { signal });
export const createUser = (user: NewUser) => api.post<User>('/system/users', user);
export const updateUser = (id: number, change: { role?: Role; status?: UserStatus }) => api.put<User>(`/system/users/${id}`, change);

export const getConfig = (signal?: AbortSignal) => api.get<SystemConfig>('/system/config', { signal });
export const saveConfig = (configs: Record<string, unknown>) => api.put<SystemConfig>('/system/config', { configs });
