import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { downloadFile } from '../../api/download';
import type { Certificate, StartedExam } from '../../api/types';
import { recordKeys } from './queries';

/** The certificate PDF, saved under its certificate number. */
export function useDownloadCertificate() {
  return useMutation({ mutationFn: (certificate: Certificate) => downloadFile(`/exam/certificates/${certificate.id}/pdf`, { name: `${certificate.certificate_no}.pdf` }) });
}

export function useDeleteMistake() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<{ id: number; deleted: true }>(`/exam/mistakes/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: recordKeys.all }),
  });
}

/** A retry session of the given mistakes (all open ones when omitted). */
export function useStartRetry() {
  return useMutation({ mutationFn: (questionIds?: number[]) => api.post<StartedExam>('/exam/mistakes/retry', questionIds ? { question_ids: questionIds } : {}) });
}
