/** The response envelope of spec 2.1: every endpoint but health answers in it. */
export interface Envelope<T> {
  data: T | null;
  error: string | null;
  message: string;
}

/** Stable machine codes carried in `error`. Domains may add their own dotted codes. */
export const ErrorCode = {
  badRequest: 'bad_request',
  invalidJson: 'invalid_json',
  validationFailed: 'validation_failed',
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  notFound: 'not_found',
  conflict: 'conflict',
  payloadTooLarge: 'payload_too_large',
  unsupportedMediaType: 'unsupported_media_type',
  internalError: 'internal_error',
} as const;

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  size: number;
}

/**
 * The API version this code implements, answered by GET /api/health. The renderer bakes it in at build time and
 * compares it with the server's to notice a window built for another version (a cached older renderer, or a
 * central server on another release).
 */
export const API_VERSION = '1.3.0';

export interface Health {
  status: 'ok';
  service: string;
  version: string;
}
