// Material upload from the page: one multipart request up to 100 MB, else resumable 5 MB chunks (spec part 8).
import { api } from '../../api/client';
import { uploadInChunks } from '../../api/chunked-upload';
import { postForm } from '../../api/post-form';
import type { MediaBindType, MediaFile, UploadInitResult } from '../../api/types';

export interface Binding {
  bind_type: MediaBindType;
  bind_id?: number;
}

const bindingFields = (form: FormData, binding: Binding) => {
  form.set('bind_type', binding.bind_type);
  if (binding.bind_id !== undefined) form.set('bind_id', String(binding.bind_id));
};

/** Files up to this size go in one request; larger ones in chunks (spec part 8). */
export const DIRECT_UPLOAD_LIMIT = 100 * 1024 * 1024;

/**
 * Uploads `file` directly or in chunks, reporting the bytes sent so far; resolves the new (pending) media. A chunked
 * upload retries dropped chunks, and one that still fails (or a closed app) resumes with the chunks it misses when
 * the same file is uploaded again.
 */
export async function uploadMedia(file: File, binding: Binding, onProgress: (sentBytes: number) => void, signal: AbortSignal): Promise<MediaFile> {
  if (file.size <= DIRECT_UPLOAD_LIMIT) {
    const form = new FormData();
    bindingFields(form, binding);
    form.set('file', file);
    return postForm<MediaFile>('/media/upload', form, (sent) => onProgress(Math.min(sent, file.size)), signal);
  }
  return uploadInChunks(
    {
      file,
      destination: [binding.bind_type, binding.bind_id ?? ''].join('|'),
      open: (s) => api.post<UploadInitResult>('/media/upload/init', { filename: file.name, file_size: file.size, ...binding }, { signal: s }),
      complete: (uploadId, s) => api.post<MediaFile>('/media/upload/complete', { upload_id: uploadId }, { signal: s }),
    },
    onProgress,
    signal,
  );
}
