import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { KnowledgeSource, Page } from '../../api/types';
import { fromPage, PAGE_SIZE } from '../../components/list/list-page';
import type { ReviewStatus } from '../review/status';

export const knowledgeKeys = {
  all: ['knowledge'] as const,
  audit: (status: ReviewStatus, page: number) => [...knowledgeKeys.all, 'audit', status, page] as const,
};

export const knowledgeQueries = {
  audit: (status: ReviewStatus, page: number) =>
    queryOptions({
      queryKey: knowledgeKeys.audit(status, page),
      queryFn: async ({ signal }) => fromPage(await api.get<Page<KnowledgeSource>>('/knowledge/audit-list', { query: { status, page, size: PAGE_SIZE }, signal })),
      placeholderData: keepPreviousData,
    }),
};
