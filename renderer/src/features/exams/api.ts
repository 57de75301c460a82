import { api } from '../../api/client';
import type { AnswerMap, ExamCover, ExamListItem, StartedExam, SubmitResult } from '../../api/types';

export const examKeys = {
  all: 'exams',
  list: 'exams/list',
  cover: (id: number) => `exams/cover/${id}`,
};

export const listExams = (signal?: AbortSignal) => api.get<ExamListItem[]>('/exam/list', { signal });
export const getExamCover = (id: number, signal?: AbortSignal) => api.get<ExamCover>('/exam/cover', { query: { id }, signal });
export const startExam = (paperId: number) => api.post<StartedExam>('/exam/start', { paper_id: paperId });
export const submitExam = (sessionId: string, answers: AnswerMap, timeSpentSec: number) =>
  api.post<SubmitResult>('/exam/submit', { session_id: sessionId, answers, time_spent_sec: timeSpentSec });
