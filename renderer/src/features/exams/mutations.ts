import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../../api/client';
import type { AnswerMap, SavedAnswers, StartedExam, SubmitResult } from '../../api/types';
import { examKeys } from './queries';
import { recordKeys } from '../records/queries';

export function useStartExam() {
  return useMutation({ mutationFn: (paperId: number) => api.post<StartedExam>('/exam/start', { paper_id: paperId }) });
}

export interface Submission {
  sessionId: string;
  answers: AnswerMap;
  timeSpentSec: number;
  /** How often the candidate left the exam window. */
  leaveCount?: number;
}

/** Submits a session (an exam, a self-test or a mistake-book retry): standings, records and mistakes change. */
export function useSubmitExam() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ sessionId, answers, timeSpentSec, leaveCount }: Submission) =>
      api.post<SubmitResult>('/exam/submit', { session_id: sessionId, answers, time_spent_sec: timeSpentSec, leave_count: leaveCount }),
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: examKeys.all }), queryClient.invalidateQueries({ queryKey: recordKeys.all })]),
  });
}

export interface AnswersToSave {
  sessionId: string;
  answers: AnswerMap;
}

/** A save that got no answer is sent again for as long as the server is away (paused while offline, no 4xx repeated). */
const unanswered = (_failures: number, error: unknown) => error instanceof ApiError && error.status === 0;

/** Autosave of an open session's answers (PUT replaces them); see useAutosave. */
export function useSaveAnswers() {
  return useMutation({
    mutationFn: ({ sessionId, answers }: AnswersToSave) => api.put<SavedAnswers>(`/exam/sessions/${encodeURIComponent(sessionId)}/answers`, { answers }),
    retry: unanswered,
    retryDelay: (failures) => Math.min(1000 * 2 ** failures, 4000),
  });
}
