import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { uploadInChunks } from '../../api/chunked-upload';
import type { ModelUploadInit } from '../../api/types';
import { speechKeys } from './queries';

/** A kind of model file the server keeps (speech ggml files, chat GGUF files): where it lives, what to refresh. */
export interface ModelShelfUi {
  /** The API path of its list, e.g. /audio/models. */
  path: string;
  /** The upload destination (resumable uploads are remembered per file and destination). */
  destination: string;
  /** What a change makes stale (the models, and the routes that use them). */
  invalidate: readonly unknown[];
}

export const speechShelf: ModelShelfUi = { path: '/audio/models', destination: 'audio_model', invalidate: speechKeys.all };

export interface InstallRequest {
  file: File;
  onProgress(sentBytes: number): void;
  signal: AbortSignal;
}

/** The server's own links name the whole path; the client adds /api itself. */
const withoutApi = (url: string) => url.replace(/^\/api(?=\/)/, '');

/** Models change what routes can run: both lists are read again. */
function useInvalidate(shelf: ModelShelfUi) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: shelf.invalidate });
}

/** Installs a model from a file on this computer: chunked and resumable like large media (not retried by TanStack). */
export function useInstallModel<M>(shelf: ModelShelfUi) {
  const invalidate = useInvalidate(shelf);
  return useMutation({
    mutationFn: ({ file, onProgress, signal }: InstallRequest) => {
      let completeUrl = '';
      return uploadInChunks(
        {
          file,
          destination: shelf.destination,
          open: async (s) => {
            const init = await api.post<ModelUploadInit>(shelf.path, { filename: file.name, file_size: file.size }, { signal: s });
            completeUrl = withoutApi(init.complete_url);
            return init;
          },
          complete: (uploadId, s) => api.post<M>(completeUrl || `${shelf.path}/uploads/${uploadId}/complete`, undefined, { signal: s }),
        },
        onProgress,
        signal,
      );
    },
    retry: false,
    onSuccess: invalidate,
  });
}

export function useVerifyModel(shelf: ModelShelfUi) {
  const invalidate = useInvalidate(shelf);
  return useMutation({ mutationFn: (name: string) => api.post<{ sha256: string }>(`${shelf.path}/${encodeURIComponent(name)}/verify`), onSuccess: invalidate });
}

export function useRemoveModel(shelf: ModelShelfUi) {
  const invalidate = useInvalidate(shelf);
  return useMutation({ mutationFn: (name: string) => api.delete<{ name: string; deleted: true }>(`${shelf.path}/${encodeURIComponent(name)}`), onSettled: invalidate });
}
