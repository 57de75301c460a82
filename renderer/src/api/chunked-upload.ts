// Resumable uploads in 5 MB chunks (spec part 8) through the media chunk endpoints, which media files and speech
// models share: the caller opens the session and completes it at its own endpoints.
import { ApiError, api, isAbort } from './client';
import { postForm } from './post-form';
import type { ChunkAccepted, UploadSession } from './types';

export interface ChunkedSession {
  upload_id: string;
  chunk_size: number;
  chunk_count: number;
}

export interface ChunkedUpload<T> {
  file: File;
  /** Where the file goes ('company|', 'audio_model'): with the file's name, size and date, what resuming matches. */
  destination: string;
  open(signal: AbortSignal): Promise<ChunkedSession>;
  complete(uploadId: string, signal: AbortSignal): Promise<T>;
}

const CHUNKS_IN_FLIGHT = 2;

/** Chunked uploads not completed yet, by file, so that choosing the same file again carries on where it stopped. */
const RESUME_STORAGE_KEY = 'trainbench.unfinished-uploads';
const CHUNK_ATTEMPTS = 4;

const fileKey = (file: File, destination: string) => [file.name, file.size, file.lastModified, destination].join('|');

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
 * Sends the file in chunks, two at a time, reporting the bytes sent so far, then completes the session. Dropped
 * chunks are retried; an upload that still fails (or a closed app) resumes with the chunks it misses when the same
 * file is sent to the same destination again.
 */
export async function uploadInChunks<T>({ file, destination, open, complete }: ChunkedUpload<T>, onProgress: (sentBytes: number) => void, signal: AbortSignal): Promise<T> {
  const key = fileKey(file, destination);
  const resumed = await resumableSession(key, file, signal);
  const session: ChunkedSession = resumed ?? (await open(signal));
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
  const result = await withRetries(() => complete(session.upload_id, signal), signal);
  rememberUpload(key, undefined);
  return result;
}
