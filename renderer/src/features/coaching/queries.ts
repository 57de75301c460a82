import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { CoachingReport, CoachingReportSummary, DraftStatus, Page, QuestionDraft } from '../../api/types';
import { fromPage, PAGE_SIZE } from '../../components/list/list-page';

export type DraftFilter = DraftStatus | 'all';

export const coachingKeys = {
  all: ['coaching'] as const,
  reports: (page: number) => [...coachingKeys.all, 'reports', page] as const,
  report: (id: number) => [...coachingKeys.all, 'report', id] as const,
  drafts: (status: DraftFilter, page: number) => [...coachingKeys.all, 'drafts', status, page] as const,
};

export const coachingQueries = {
  /** The caller's own reports; every rep's for admins. */
  reports: (page: number) =>
    queryOptions({
      queryKey: coachingKeys.reports(page),
      queryFn: async ({ signal }) => fromPage(await api.get<Page<CoachingReportSummary>>('/coaching/reports', { query: { page, size: PAGE_SIZE }, signal })),
      placeholderData: keepPreviousData,
    }),
  /** Its audio links are signed for two hours: read again well before they expire. */
  report: (id: number) => queryOptions({ queryKey: coachingKeys.report(id), queryFn: ({ signal }) => api.get<CoachingReport>(`/coaching/reports/${id}`, { signal }), staleTime: 30 * 60_000 }),
  drafts: (status: DraftFilter, page: number) =>
    queryOptions({
      queryKey: coachingKeys.drafts(status, page),
      queryFn: async ({ signal }) => fromPage(await api.get<Page<QuestionDraft>>('/coaching/question-drafts', { query: { status, page, size: PAGE_SIZE }, signal })),
      placeholderData: keepPreviousData,
    }),
};
