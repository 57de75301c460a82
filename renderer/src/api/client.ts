import type { Envelope } from './types';
import { readToken } from './session-token';
import { serverUnreachable } from './connection';

/** A failed API call: the envelope's machine code and message, or a network failure (status 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const isAbort = (err: unknown) => err instanceof DOMException && err.name === 'AbortError';

let onUnauthorized: () => void = () => {};

/** Called when a request made with a token is answered 401: the session has expired or was revoked. */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

export type Query = Record<string, string | number | boolean | undefined | null>;

export interface RequestOptions {
  body?: unknown;
  query?: Query;
  signal?: AbortSignal;
}

export function apiUrl(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  return `/api${path}${search ? `?${search}` : ''}`;
}

export function authHeaders(): Record<string, string> {
  const token = readToken();
  return token ? { authorization: `Bearer ${token}` } : {};
}

/** A request that never got an answer: reported to the connection monitor, which shows "reconnecting" and probes the server. */
export function networkError(): ApiError {
  serverUnreachable();
  return new ApiError(0, 'network_error', 'The server cannot be reached');
}

/** Turns a non-2xx answer (enveloped or not) into an ApiError, and reports an ended session. */
export async function errorFrom(res: Response): Promise<ApiError> {
  const envelope = (await res.json().catch(() => null)) as (Envelope<null> & { details?: unknown }) | null;
  if (res.status === 401 && readToken()) onUnauthorized();
  return new ApiError(res.status, envelope?.error ?? 'http_error', envelope?.message ?? `The server answered ${res.status}.`, envelope?.details);
}

/** Same-origin request with a JSON body (or a FormData one, sent as multipart); resolves the envelope's data or rejects with an ApiError. */
export async function request<T>(method: string, path: string, { body, query, signal }: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...authHeaders() };
  const form = body instanceof FormData;
  if (body !== undefined && !form) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(apiUrl(path, query), { method, headers, body: body === undefined ? undefined : form ? body : JSON.stringify(body), signal });
  } catch (err) {
    if (isAbort(err)) throw err;
    throw networkError();
  }
  if (!res.ok) throw await errorFrom(res);
  const envelope = (await res.json()) as Envelope<T>;
  return envelope.data as T;
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, { ...options, body }),
  delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
};
