import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { ExamCover, ExamListItem } from '../../api/types';

export const examKeys = {
  all: ['exams'] as const,
  list: () => [...examKeys.all, 'list'] as const,
  cover: (id: number) => [...examKeys.all, 'cover', id] as const,
};

export const examQueries = {
  list: () => queryOptions({ queryKey: examKeys.list(), queryFn: ({ signal }) => api.get<ExamListItem[]>('/exam/list', { signal }) }),
  cover: (id: number) => queryOptions({ queryKey: examKeys.cover(id), queryFn: ({ signal }) => api.get<ExamCover>('/exam/cover', { query: { id }, signal }) }),
};
