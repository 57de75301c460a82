import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { ReviewAnswerResult, ReviewQueue, ReviewStats, SelfRating, StartedExam } from '../../api/types';

export const reviewKeys = {
  all: ['spaced-review'] as const,
  queue: () => [...reviewKeys.all, 'queue'] as const,
  stats: (department: string, days: number) => [...reviewKeys.all, 'stats', department, days] as const,
};

export const reviewQueries = {
  queue: () => queryOptions({ queryKey: reviewKeys.queue(), queryFn: ({ signal }) => api.get<ReviewQueue>('/review/queue', { signal }) }),
  stats: (department: string, days: number) =>
    queryOptions({
      queryKey: reviewKeys.stats(department, days),
      queryFn: ({ signal }) => api.get<ReviewStats>('/review/stats', { query: { department: department || undefined, days }, signal }),
      placeholderData: keepPreviousData,
    }),
};

export type ReviewAnswer = { card_id: number; answer: string | string[] } | { card_id: number; rating: SelfRating };

/** One review; the queue (home page included) is read again afterwards. */
export function useAnswerCard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ReviewAnswer) => api.post<ReviewAnswerResult>('/review/answers', body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: reviewKeys.queue() }),
  });
}

/** "按遗忘曲线组卷": a self-test session of the due questions. */
export function useDueSelfTest() {
  return useMutation({ mutationFn: () => api.post<StartedExam>('/review/self-test', {}) });
}
