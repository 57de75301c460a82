import { api, apiUrl, authHeaders, errorFrom, isAbort, networkError } from '../../api/client';
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

/** The certificate PDF needs the Bearer token, so it cannot be a plain link: fetch it, then save it from memory. */
export async function downloadCertificate(certificate: Certificate): Promise<void> {
  let res: Response;
  try {
    res = await fetch(apiUrl(`/exam/certificates/${certificate.id}/pdf`), { headers: authHeaders() });
  } catch (err) {
    if (isAbort(err)) throw err;
    throw networkError();
  }
  if (!res.ok) throw await errorFrom(res);
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = `${certificate.certificate_no}.pdf`;
  document.body.append(link);
  link.click();
  link.remove();
  // The click only starts the download; give it time to read the blob before letting it go.
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
