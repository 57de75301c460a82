import { api, apiUrl, authHeaders, errorFrom, networkError } from '../../api/client';
import type { ChunkAccepted, MediaBindType, MediaFile, MediaStatusInfo, Page, UploadInitResult } from '../../api/types';
import type { ReviewStatus } from '../review/StatusFilter';

export const mediaKeys = {
  all: 'media',
  audit: (status: ReviewStatus, page: number) => `media/audit/${status}/${page}`,
  status: (id: number) => `media/status/${id}`,
};

export const listMediaAudit = (status: ReviewStatus, page: number, signal?: AbortSignal) => api.get<Page<MediaFile>>('/media/audit-list', { query: { status, page, size: 20 }, signal });
export const auditMedia = (id: number, reason: string | null) =>
  api.post<MediaFile>(`/media/audit/${id}`, reason === null ? { action: 'approve' } : { action: 'reject', reject_reason: reason });
export const getMediaStatus = (id: number, signal?: AbortSignal) => api.get<MediaStatusInfo>(`/media/status/${id}`, { signal });

export interface Binding {
  bind_type: MediaBindType;
  bind_id?: number;
}

/**
 * POSTs a multipart form with upload progress (fetch cannot report it), answering like `request`: the envelope's
 * data, or an ApiError built from the same envelope (a 401 also ends the session).
 */
function postForm<T>(path: string, form: FormData, onProgress: (sentBytes: number) => void, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiUrl(path));
    for (const [name, value] of Object.entries(authHeaders())) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => onProgress(event.loaded);
    xhr.onerror = () => reject(networkError());
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    xhr.onload = () => {
      const res = new Response(xhr.responseText, { status: xhr.status, headers: { 'content-type': 'application/json' } });
      if (res.ok) res.json().then((envelope: { data: T }) => resolve(envelope.data), reject);
      else errorFrom(res).then(reject, reject);
    };
    signal.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

const bindingFields = (form: FormData, binding: Binding) => {
  form.set('bind_type', binding.bind_type);
  if (binding.bind_id !== undefined) form.set('bind_id', String(binding.bind_id));
};

/** Files up to this size go in one request; larger ones in chunks (spec part 8). */
export const DIRECT_UPLOAD_LIMIT = 100 * 1024 * 1024;
const CHUNKS_IN_FLIGHT = 2;

/** Uploads `file` directly or in chunks, reporting the bytes sent so far; resolves the new (pending) media. */
export async function uploadMedia(file: File, binding: Binding, onProgress: (sentBytes: number) => void, signal: AbortSignal): Promise<MediaFile> {
  if (file.size <= DIRECT_UPLOAD_LIMIT) {
    const form = new FormData();
    bindingFields(form, binding);
    form.set('file', file);
    return postForm<MediaFile>('/media/upload', form, (sent) => onProgress(Math.min(sent, file.size)), signal);
  }

  const session = await api.post<UploadInitResult>('/media/upload/init', { filename: file.name, file_size: file.size, ...binding }, { signal });
  // Bytes of finished chunks plus what is under way in each chunk request.
  let finished = 0;
  const inFlight = new Map<number, number>();
  const report = () => onProgress(finished + [...inFlight.values()].reduce((a, b) => a + b, 0));

  let next = 0;
  const sendChunks = async () => {
    while (next < session.chunk_count) {
      const index = next++;
      const slice = file.slice(index * session.chunk_size, Math.min(file.size, (index + 1) * session.chunk_size));
      const form = new FormData();
      form.set('upload_id', session.upload_id);
      form.set('chunk_index', String(index));
      form.set('file', slice, file.name);
      try {
        await postForm<ChunkAccepted>('/media/upload/chunk', form, (sent) => {
          inFlight.set(index, Math.min(sent, slice.size));
          report();
        }, signal);
      } catch (err) {
        next = session.chunk_count; // the other worker stops after its current chunk
        throw err;
      }
      inFlight.delete(index);
      finished += slice.size;
      report();
    }
  };
  await Promise.all(Array.from({ length: CHUNKS_IN_FLIGHT }, sendChunks));
  return api.post<MediaFile>('/media/upload/complete', { upload_id: session.upload_id }, { signal });
}
