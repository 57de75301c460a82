import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { PackKey } from '../../api/types';

export const packKeys = {
  all: ['packs'] as const,
  key: () => [...packKeys.all, 'key'] as const,
};

export const packQueries = {
  key: () => queryOptions({ queryKey: packKeys.key(), queryFn: ({ signal }) => api.get<PackKey>('/knowledge-packs/key', { signal }) }),
};
