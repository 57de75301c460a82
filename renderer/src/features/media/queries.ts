import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { MediaFile, MediaStatusInfo, Page } from '../../api/types';
import { fromPage, PAGE_SIZE } from '../../components/list/list-page';
import type { ReviewStatus } from '../review/status';

export const mediaKeys = {
  all: ['media'] as const,
  audit: (status: ReviewStatus, page: number) => [...mediaKeys.all, 'audit', status, page] as const,
  status: (id: number) => [...mediaKeys.all, 'status', id] as const,
};

export const mediaQueries = {
  audit: (status: ReviewStatus, page: number) =>
    queryOptions({
      queryKey: mediaKeys.audit(status, page),
      queryFn: async ({ signal }) => fromPage(await api.get<Page<MediaFile>>('/media/audit-list', { query: { status, page, size: PAGE_SIZE }, signal })),
      placeholderData: keepPreviousData,
    }),
  /** An approved media's text extraction, polled while it is queued or running. */
  status: (id: number) =>
    queryOptions({
      queryKey: mediaKeys.status(id),
      queryFn: ({ signal }) => api.get<MediaStatusInfo>(`/media/status/${id}`, { signal }),
      refetchInterval: (query) => (['queued', 'running'].includes(query.state.data?.extraction.state ?? 'queued') ? 1500 : false),
    }),
};
