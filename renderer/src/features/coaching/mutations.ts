import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { CoachingReport, Question, QuestionDraft, ReviewItem } from '../../api/types';
import { coachingKeys } from './queries';

export interface CallAnalysisRequest {
  transcription_id: number;
  rep_speaker: string;
  product_id?: number;
}

/** A coaching report from a speaker-labelled transcription (the model part may take a minute on a laptop). */
export function useCreateReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CallAnalysisRequest) => api.post<CoachingReport>('/coaching/calls', body),
    onSuccess: (report) => {
      queryClient.setQueryData(coachingKeys.report(report.id), report);
      return queryClient.invalidateQueries({ queryKey: [...coachingKeys.all, 'reports'] });
    },
  });
}

/** Approve a draft question into the bank (reason null) or reject it with a reason. */
export function useAuditDraft() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: number; reason: string | null }) =>
      api.post<{ status: string; draft: QuestionDraft; question: Question | null }>(`/coaching/question-drafts/${id}/audit`, reason === null ? { action: 'approve' } : { action: 'reject', reject_reason: reason }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: coachingKeys.all }),
  });
}

/** The rep marks a misstated fact on their review list as reviewed, or takes it back. */
export function useMarkReviewItem(reportId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, mastered }: { id: number; mastered: boolean }) => api.put<ReviewItem>(`/coaching/review-items/${id}`, { mastered }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: coachingKeys.report(reportId) }),
  });
}
