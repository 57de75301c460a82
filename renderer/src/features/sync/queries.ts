import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { SyncDevice, SyncIndicator, SyncStatus } from '../../api/types';

export const syncKeys = {
  all: ['sync'] as const,
  status: () => [...syncKeys.all, 'status'] as const,
  devices: () => [...syncKeys.all, 'devices'] as const,
  indicator: () => [...syncKeys.all, 'indicator'] as const,
};

export const syncQueries = {
  /** The branch's sync; polled while a run or a download is under way. */
  status: () =>
    queryOptions({
      queryKey: syncKeys.status(),
      queryFn: ({ signal }) => api.get<SyncStatus>('/sync/status', { signal }),
      refetchInterval: (query) => (query.state.data?.state === 'running' || query.state.data?.downloads.length ? 1000 : 15_000),
    }),
  /** The header's indicator, for everyone; a minute is fresh enough. */
  indicator: () => queryOptions({ queryKey: syncKeys.indicator(), queryFn: ({ signal }) => api.get<SyncIndicator>('/sync/indicator', { signal }), refetchInterval: 60_000 }),
  devices: () => queryOptions({ queryKey: syncKeys.devices(), queryFn: ({ signal }) => api.get<SyncDevice[]>('/sync/devices', { signal }) }),
};
