import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { SystemConfig, UpdateStatus, User } from '../../api/types';
import { pagedArrayQuery } from '../../components/list/paged-query';

export interface UserFilter {
  q: string;
  /** '' for every status. */
  status: string;
  page: number;
}

export const adminKeys = {
  users: ['admin', 'users'] as const,
  userList: (filter: UserFilter) => [...adminKeys.users, 'list', filter] as const,
  config: ['admin', 'config'] as const,
  updateStatus: ['admin', 'update-status'] as const,
};

export const adminQueries = {
  users: (filter: UserFilter) =>
pagedArrayQuery<User>('/system/users', adminKeys.userList(filter), filter.page, { q: filter.q, status: filter.status }),
  config: () => queryOptions({ queryKey: adminKeys.config, queryFn: ({ signal }) => api.get<SystemConfig>('/system/config', { signal }) }),
  /** Followed every few seconds while a download runs. */
  updateStatus: () =>
    queryOptions({
      queryKey: adminKeys.updateStatus,
      queryFn: ({ signal }) => api.get<UpdateStatus>('/system/update-status', { signal }),
      refetchInterval: (query) => (query.state.data?.state === 'downloading' || query.state.data?.state === 'checking' ? 3_000 : false),
    }),
};
