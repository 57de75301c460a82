import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { SystemConfig, User } from '../../api/types';
import { fromArray, PAGE_SIZE } from '../../components/list/list-page';

export interface UserFilter {
  q: string;
  page: number;
}

export const adminKeys = {
  users: ['admin', 'users'] as const,
  userList: (filter: UserFilter) => [...adminKeys.users, 'list', filter] as const,
  config: ['admin', 'config'] as const,
};

export const adminQueries = {
  users: (filter: UserFilter) =>
    queryOptions({
      queryKey: adminKeys.userList(filter),
      queryFn: async ({ signal }) => fromArray(await api.get<User[]>('/system/users', { query: { q: filter.q, page: filter.page, size: PAGE_SIZE }, signal }), filter.page, PAGE_SIZE),
      placeholderData: keepPreviousData,
    }),
  config: () => queryOptions({ queryKey: adminKeys.config, queryFn: ({ signal }) => api.get<SystemConfig>('/system/config', { signal }) }),
};
