import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { ExamStats } from '../../api/types';

/** The filters of the admin records screen, as the server takes them (times already ISO). */
export interface RecordSelection {
  keyword: string;
  passed: string;
  paper_id: string;
  department: string;
  from: string;
  to: string;
}

export type Granularity = 'day' | 'month';

/** The reader's offset from UTC in whole hours (the server groups by hour), east positive: +480 in China. */
export const tzOffset = () => Math.round(-new Date().getTimezoneOffset() / 60) * 60;

export const statsKeys = {
  all: ['exam-stats'] as const,
  stats: (selection: RecordSelection, granularity: Granularity) => [...statsKeys.all, selection, granularity] as const,
};

export const statsQueries = {
  stats: (selection: RecordSelection, granularity: Granularity) =>
    queryOptions({
      queryKey: statsKeys.stats(selection, granularity),
      queryFn: ({ signal }) => api.get<ExamStats>('/system/exam-stats', { query: { ...selection, granularity, tz_offset: tzOffset() }, signal }),
      placeholderData: keepPreviousData,
    }),
};
