import { apiUrl, authHeaders, errorFrom, isAbort, networkError } from './client';

/**
 * The file name a Content-Disposition header gives, if any: `filename*` (RFC 6266/8187, UTF-8, any language) first,
 * the plain `filename` (ASCII stand-ins for other characters) only without it.
 */
export function dispositionName(header: string | null): string | undefined {
  const extended = /filename\*\s*=\s*UTF-8'[^']*'([^;\s]+)/i.exec(header ?? '');
  if (extended) {
    try {
      return decodeURIComponent(extended[1]!);
    } catch {
      // A malformed escape: fall back to the plain name.
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/i.exec(header ?? '');
  return plain ? (plain[1]?.replace(/\\(.)/g, '$1') ?? plain[2]) : undefined;
}

/** A file the API serves outside the envelope, with the Bearer token (so it cannot be a plain link). */
export async function fetchFile(path: string, init: RequestInit = {}): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(apiUrl(path), { ...init, headers: { ...authHeaders(), ...(init.headers as Record<string, string> | undefined) } });
  } catch (err) {
    if (isAbort(err)) throw err;
    throw networkError();
  }
  if (!res.ok) throw await errorFrom(res);
  return res;
}

/**
 * Fetches a file the API serves outside the envelope and saves it as `name`, else as the server names it. It needs the Bearer token, so it cannot be a
 * plain link: the body is read into memory and handed to the browser's download from there.
 */
export async function downloadFile(path: string, { name, init = {} }: { name?: string; init?: RequestInit } = {}): Promise<void> {
  const res = await fetchFile(path, init);
  saveBlob(await res.blob(), name ?? dispositionName(res.headers.get('content-disposition')) ?? 'download');
}

/** Hands a file made in the browser (or fetched) to the browser's download as `name`. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The click only starts the download; give it time to read the blob before letting it go.
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
