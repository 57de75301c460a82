// Material upload from the page: one multipart request up to 100 MB, else resumable 5 MB chunks (spec part 8).
import { ApiError, api, apiUrl, authHeaders, errorFrom, isAbort, networkError } from '../../api/client';
import type { ChunkAccepted, MediaBindType, MediaFile, UploadInitResult, UploadSession } from '../../api/types';

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

/** Chunked uploads not completed yet, by file, so that choosing the same file again carries on where it stopped. */
const RESUME_STORAGE_KEY = 'trainbench.unfinished-uploads';
const CHUNK_ATTEMPTS = 4;

const fileKey = (file: File, binding: Binding) => [file.name, file.size, file.lastModified, binding.bind_type, binding.bind_id ?? ''].join('|');

function unfinishedUploads(): Record<string, string> {
  try {
    return JSON.parse(localStorage.getItem(RESUME_STORAGE_KEY) ?? '{}') as Record<string, string>;
  } catch {
    return {};
  }
}

function rememberUpload(key: string, uploadId: string | undefined): void {
  const all = unfinishedUploads();
  if (uploadId) all[key] = uploadId;
  else delete all[key];
  localStorage.setItem(RESUME_STORAGE_KEY, JSON.stringify(all));
}

/** The session this file was being sent in, with the chunks still missing; undefined when there is none to resume. */
async function resumableSession(key: string, file: File, signal: AbortSignal): Promise<UploadSession | undefined> {
  const uploadId = unfinishedUploads()[key];
  if (!uploadId) return undefined;
  try {
    const session = await api.get<UploadSession>(`/media/upload/${uploadId}`, { signal });
    if (session.status === 'open' && session.file_size === file.size) return session;
  } catch (err) {
    if (isAbort(err) || !(err instanceof ApiError) || err.status === 0) throw err;
  }
  rememberUpload(key, undefined); // expired, completed or no longer ours
  return undefined;
}

const waitBeforeRetry = (attempt: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, 1000 * 2 ** attempt);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(new DOMException('Upload cancelled', 'AbortError'))), { once: true });
  });

/** A dropped connection is tried again a few times, waiting longer each time; an answer from the server is final. */
async function withRetries<T>(send: () => Promise<T>, signal: AbortSignal): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await send();
    } catch (err) {
      const dropped = err instanceof ApiError && err.status === 0;
      if (!dropped || attempt + 1 >= CHUNK_ATTEMPTS) throw err;
      await waitBeforeRetry(attempt, signal);
    }
  }
}

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

  const key = fileKey(file, binding);
  const resumed = await resumableSession(key, file, signal);
  const session: UploadInitResult = resumed ?? (await api.post<UploadInitResult>('/media/upload/init', { filename: file.name, file_size: file.size, ...binding }, { signal }));
  if (!resumed) rememberUpload(key, session.upload_id);
  const chunkBytes = (index: number) => Math.min(file.size, (index + 1) * session.chunk_size) - index * session.chunk_size;
  const queue = resumed ? [...resumed.missing] : Array.from({ length: session.chunk_count }, (_, index) => index);

  // Bytes of finished chunks plus what is under way in each chunk request.
  let finished = file.size - queue.reduce((sum, index) => sum + chunkBytes(index), 0);
  const inFlight = new Map<number, number>();
  const report = () => onProgress(finished + [...inFlight.values()].reduce((a, b) => a + b, 0));
  report();

  let failed = false;
  const sendChunks = async () => {
    for (let index = queue.shift(); index !== undefined && !failed; index = queue.shift()) {
      const slice = file.slice(index * session.chunk_size, index * session.chunk_size + chunkBytes(index));
      const form = new FormData();
      form.set('upload_id', session.upload_id);
      form.set('chunk_index', String(index));
      form.set('file', slice, file.name);
      try {
        await withRetries(() => postForm<ChunkAccepted>('/media/upload/chunk', form, (sent) => {
          inFlight.set(index!, Math.min(sent, slice.size));
          report();
        }, signal), signal);
      } catch (err) {
        failed = true; // the other worker stops after its current chunk
        throw err;
      }
      inFlight.delete(index);
      finished += slice.size;
      report();
    }
  };
  // Fail only once the other worker's chunk has ended too: the session is then at rest, and sending the same
  // file again cannot collide with a chunk still on its way.
  const sent = await Promise.allSettled(Array.from({ length: CHUNKS_IN_FLIGHT }, sendChunks));
  const failure = sent.find((result) => result.status === 'rejected');
  if (failure) throw failure.reason;
  const media = await withRetries(() => api.post<MediaFile>('/media/upload/complete', { upload_id: session.upload_id }, { signal }), signal);
  rememberUpload(key, undefined);
  return media;
}
