// A server error in the reader's language: the code's message (error-codes.ts), with its details composed from the
// error's parameters. A code not listed falls back to its status class. The server's own words (English) are shown
// as a detail only to an English reader, for the generic codes; a Chinese reader gets what the parameters say.
import type { TFunction } from 'i18next';
import { ApiError } from '../api/client';
import { errorKeyOf, type ErrorKey } from './error-codes';
import { currentLanguage } from './index';

/** Codes whose translation is general: the server's message says what exactly was wrong. */
const GENERIC = new Set(['bad_request', 'invalid_json', 'validation_failed', 'conflict', 'sync.central_refused']);

const byStatus = (status: number): ErrorKey =>
  status === 0 ? 'errors.network_error' : status >= 500 ? 'errors.internal_error' : status === 404 ? 'errors.not_found' : status === 403 ? 'errors.forbidden' : 'errors.bad_request';

export interface DescribedError {
  message: string;
  /** The server's own words, when the translated message is only general. */
  detail?: string;
}

/** The fields a validation error names (details [{path, message}]), as the reader can find them in the form. */
function fieldsOf(details: unknown): string[] {
  if (!Array.isArray(details)) return [];
  return [...new Set(details.map((d) => (d && typeof d === 'object' && 'path' in d ? String((d as { path: unknown }).path) : '')).filter(Boolean))];
}

/** Parameters of the message: the error's details object, its instants formatted for the reader. */
function paramsOf(details: unknown): Record<string, string | number> {
  if (!details || typeof details !== 'object' || Array.isArray(details)) return {};
  const format = new Intl.DateTimeFormat(currentLanguage(), { dateStyle: 'medium', timeStyle: 'short' });
  return Object.fromEntries(
    Object.entries(details).flatMap(([name, value]): [string, string | number][] => {
      if (typeof value === 'number') return [[name, value]];
      if (typeof value !== 'string') return [];
      return [[name, /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value)) ? format.format(new Date(value)) : value]];
    }),
  );
}

export function describeError(error: unknown, t: TFunction): DescribedError {
  if (!(error instanceof ApiError)) return { message: t('errors.unexpected') };
  const key = errorKeyOf(error.code, error.details);
  const message = String(t((key ?? byStatus(error.status)) as never, paramsOf(error.details) as never));
  if (key && !GENERIC.has(error.code)) return { message };
  if (currentLanguage() === 'en') return { message, detail: error.message || undefined };
  const fields = fieldsOf(error.details);
  return { message, detail: fields.length ? (t('errors.details.fields', { fields: fields.join('、') }) as string) : undefined };
}

/**
 * An error the server stored with a result rather than answered (e.g. a coaching report's model run: its code and
 * English message), in the reader's language, as describeError words an answered one.
 */
export function describeStoredError(error: { code: string; message: string }, t: TFunction): DescribedError {
  return describeError(new ApiError(500, error.code, error.message), t);
}
