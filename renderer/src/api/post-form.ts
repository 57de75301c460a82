import { apiUrl, authHeaders, errorFrom, networkError } from './client';

/**
 * POSTs a multipart form with upload progress (fetch cannot report it), answering like `request`: the envelope's
 * data, or an ApiError built from the same envelope (a 401 also ends the session).
 */
export function postForm<T>(path: string, form: FormData, onProgress: (sentBytes: number) => void, signal: AbortSignal): Promise<T> {
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
