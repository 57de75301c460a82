import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { ExamPaper, ExamPaperAdmin, PaperStatus, Question, QuestionStatus } from '../../api/types';
import { bankKeys } from './queries';
import { examKeys } from '../exams/queries';

export type QuestionFields = Pick<Question, 'domain' | 'type' | 'stem' | 'options' | 'answer' | 'explanation'>;

export type PaperFields = Pick<ExamPaper, 'name' | 'type' | 'domain' | 'question_count' | 'total_score' | 'pass_score' | 'duration_minutes' | 'randomize' | 'description' | 'max_attempts'> & { status?: PaperStatus };

/** Any change to the bank refreshes the bank's lists and what candidates see of exams. */
function useBankChange<V, R>(send: (value: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: bankKeys.all }), queryClient.invalidateQueries({ queryKey: examKeys.all })]),
  });
}

export const useSaveQuestion = () =>
  useBankChange(({ id, fields }: { id?: number; fields: QuestionFields }) => (id ? api.put<Question>(`/exam/questions/${id}`, fields) : api.post<Question>('/exam/questions', fields)));

/** DELETE disables; PUT {status: 'active'} brings it back. */
export const useSetQuestionStatus = () =>
  useBankChange(({ id, status }: { id: number; status: QuestionStatus }) => (status === 'active' ? api.put<Question>(`/exam/questions/${id}`, { status }) : api.delete<Question>(`/exam/questions/${id}`)));

export const useSavePaper = () =>
  useBankChange(({ id, fields }: { id?: number; fields: PaperFields }) => (id ? api.put<ExamPaperAdmin>(`/exam/papers/${id}`, fields) : api.post<ExamPaperAdmin>('/exam/papers', fields)));

/** Making a formal paper active the first time publishes it: every active employee is notified. */
export const useSetPaperStatus = () =>
  useBankChange(({ id, status }: { id: number; status: PaperStatus }) => (status === 'active' ? api.put<ExamPaperAdmin>(`/exam/papers/${id}`, { status }) : api.delete<ExamPaperAdmin>(`/exam/papers/${id}`)));
