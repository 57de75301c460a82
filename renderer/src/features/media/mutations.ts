import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { MediaFile } from '../../api/types';
import { mediaKeys } from './queries';
import { uploadMedia, type Binding } from './upload';

/** Approve (reason null) or reject with a reason. */
export function useAuditMedia() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: number; reason: string | null }) =>
      api.post<MediaFile>(`/media/audit/${id}`, reason === null ? { action: 'approve' } : { action: 'reject', reject_reason: reason }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: mediaKeys.all }),
  });
}

export interface UploadRequest {
  file: File;
  binding: Binding;
  onProgress(sentBytes: number): void;
  signal: AbortSignal;
}

/** Not retried by TanStack: the upload retries its own chunks and resumes an unfinished file (upload.ts). */
export function useUploadMedia() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, binding, onProgress, signal }: UploadRequest) => uploadMedia(file, binding, onProgress, signal),
    retry: false,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mediaKeys.all }),
  });
}
