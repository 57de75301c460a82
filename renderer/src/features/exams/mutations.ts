import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { AnswerMap, StartedExam, SubmitResult } from '../../api/types';
import { examKeys } from './queries';
import { recordKeys } from '../records/queries';

export function useStartExam() {
  return useMutation({ mutationFn: (paperId: number) => api.post<StartedExam>('/exam/start', { paper_id: paperId }) });
}

export interface Submission {
  sessionId: string;
  answers: AnswerMap;
  timeSpentSec: number;
}

/** Submits a session (an exam, a self-test or a mistake-book retry): standings, records and mistakes change. */
export function useSubmitExam() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ sessionId, answers, timeSpentSec }: Submission) => api.post<SubmitResult>('/exam/submit', { session_id: sessionId, answers, time_spent_sec: timeSpentSec }),
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: examKeys.all }), queryClient.invalidateQueries({ queryKey: recordKeys.all })]),
  });
}
