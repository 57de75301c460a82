import { api } from '../../api/client';
import { downloadFile } from '../../api/download';
import type { Certificate, ExamRecord, ExamRecordDetail, MistakeEntry, Page, StartedExam } from '../../api/types';

export const recordKeys = {
  all: 'records',
  list: (page: number) => `records/list/${page}`,
  everyone: (page: number, keyword: string, passed: string) => `records/everyone/${page}/${keyword}/${passed}`,
  detail: (id: number) => `records/detail/${id}`,
  certificates: 'records/certificates',
  mistakes: (page: number) => `records/mistakes/${page}`,
};

export const PAGE_SIZE = 20;

export const listRecords = (page: number, userId: number, signal?: AbortSignal) =>
  api.get<Page<ExamRecord>>('/exam/record', { query: { page, size: PAGE_SIZE, user_id: userId }, signal });
/** Everyone's records (admin): `keyword` matches username, full name or exam name; `passed` is '', 'true' or 'false'. */
export const listAllRecords = (page: number, keyword: string, passed: string, signal?: AbortSignal) =>
  api.get<Page<ExamRecord>>('/system/exam-records', { query: { page, size: PAGE_SIZE, keyword, passed }, signal });
export const getRecord = (id: number, signal?: AbortSignal) => api.get<ExamRecordDetail>(`/exam/record/${id}`, { signal });
export const listCertificates = (signal?: AbortSignal) => api.get<Certificate[]>('/exam/certificates', { signal });

export const listMistakes = (page: number, signal?: AbortSignal) => api.get<Page<MistakeEntry>>('/exam/mistakes', { query: { page, size: PAGE_SIZE }, signal });
export const deleteMistake = (id: number) => api.delete<{ id: number; deleted: true }>(`/exam/mistakes/${id}`);
export const startRetry = (questionIds?: number[]) => api.post<StartedExam>('/exam/mistakes/retry', questionIds ? { question_ids: questionIds } : {});

/** The certificate PDF, saved under its certificate number. */
export const downloadCertificate = (certificate: Certificate): Promise<void> => downloadFile(`/exam/certificates/${certificate.id}/pdf`, { name: `${certificate.certificate_no}.pdf` });
