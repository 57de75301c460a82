import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { Certificate, ExamRecord, ExamRecordDetail, MistakeEntry, Page } from '../../api/types';
import { fromPage, PAGE_SIZE } from '../../components/list/list-page';

export interface EveryoneFilter {
  page: number;
  /** Matches username, full name or exam name. */
  keyword: string;
  /** '', 'true' or 'false'. */
  passed: string;
  /** The admin screen's further filters ('' = any): a paper id, a department, submitted from / before (ISO). */
  paper_id?: string;
  department?: string;
  from?: string;
  to?: string;
}

export const recordKeys = {
  all: ['records'] as const,
  mine: (userId: number, page: number) => [...recordKeys.all, 'mine', userId, page] as const,
  everyone: (filter: EveryoneFilter) => [...recordKeys.all, 'everyone', filter] as const,
  detail: (id: number) => [...recordKeys.all, 'detail', id] as const,
  certificates: () => [...recordKeys.all, 'certificates'] as const,
  certificate: (id: number) => [...recordKeys.certificates(), id] as const,
  mistakes: (page: number) => [...recordKeys.all, 'mistakes', page] as const,
};

export const recordQueries = {
  /** The caller's own records (an admin's /exam/record would list everyone's). */
  mine: (userId: number, page: number) =>
    queryOptions({
      queryKey: recordKeys.mine(userId, page),
      queryFn: async ({ signal }) => fromPage(await api.get<Page<ExamRecord>>('/exam/record', { query: { page, size: PAGE_SIZE, user_id: userId }, signal })),
      placeholderData: keepPreviousData,
    }),
  everyone: (filter: EveryoneFilter) =>
    queryOptions({
      queryKey: recordKeys.everyone(filter),
      queryFn: async ({ signal }) => fromPage(await api.get<Page<ExamRecord>>('/system/exam-records', { query: { ...filter, size: PAGE_SIZE }, signal })),
      placeholderData: keepPreviousData,
    }),
  detail: (id: number) => queryOptions({ queryKey: recordKeys.detail(id), queryFn: ({ signal }) => api.get<ExamRecordDetail>(`/exam/record/${id}`, { signal }) }),
  certificates: () => queryOptions({ queryKey: recordKeys.certificates(), queryFn: ({ signal }) => api.get<Certificate[]>('/exam/certificates', { signal }) }),
  certificate: (id: number) => queryOptions({ queryKey: recordKeys.certificate(id), queryFn: ({ signal }) => api.get<Certificate>(`/exam/certificates/${id}`, { signal }) }),
  mistakes: (page: number) =>
    queryOptions({
      queryKey: recordKeys.mistakes(page),
      queryFn: async ({ signal }) => fromPage(await api.get<Page<MistakeEntry>>('/exam/mistakes', { query: { page, size: PAGE_SIZE }, signal })),
      placeholderData: keepPreviousData,
    }),
};
