import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { ExamCover, ExamListItem, QuestionExplanation, SessionState } from '../../api/types';

export const examKeys = {
  all: ['exams'] as const,
  list: () => [...examKeys.all, 'list'] as const,
  cover: (id: number) => [...examKeys.all, 'cover', id] as const,
  explanations: (sessionId: string) => [...examKeys.all, 'explanations', sessionId] as const,
  session: (sessionId: string) => [...examKeys.all, 'session', sessionId] as const,
};

export const examQueries = {
  list: () => queryOptions({ queryKey: examKeys.list(), queryFn: ({ signal }) => api.get<ExamListItem[]>('/exam/list', { signal }) }),
  cover: (id: number) => queryOptions({ queryKey: examKeys.cover(id), queryFn: ({ signal }) => api.get<ExamCover>('/exam/cover', { query: { id }, signal }) }),
  /** A submitted session's explanations: they never change afterwards. */
  explanations: (sessionId: string) =>
    queryOptions({
      queryKey: examKeys.explanations(sessionId),
      queryFn: ({ signal }) => api.get<QuestionExplanation[]>(`/exam/sessions/${encodeURIComponent(sessionId)}/explanations`, { signal }),
      staleTime: Infinity,
    }),
  /** An open session read once to resume it: never cached, its remaining time must be fresh. */
  session: (sessionId: string) =>
    queryOptions({
      queryKey: examKeys.session(sessionId),
      queryFn: ({ signal }) => api.get<SessionState>(`/exam/sessions/${encodeURIComponent(sessionId)}`, { signal }),
      gcTime: 0,
      refetchOnWindowFocus: false,
      refetchOnReconnect: false,
    }),
};
