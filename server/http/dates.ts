// The one place request dates are read. The Date parser rolls an impossible day over into the next month
// (`2027-02-30` reads as 2 March), so each schema here checks the calendar date it was given before trusting it.
import { z } from 'zod';

const LEADING_DATE = /^(\d{4})-(\d{2})-(\d{2})/;

const daysInMonth = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** True when the text starts with a `YYYY-MM-DD` that names a day of the calendar (or has no such start). */
export function realCalendarDate(text: string): boolean {
  const match = LEADING_DATE.exec(text);
  if (!match) return true;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** Parses to epoch milliseconds; NaN for text that is not a date, or that names a day the calendar lacks. */
export function parseRealDate(text: string): number {
  return realCalendarDate(text) ? Date.parse(text) : Number.NaN;
}

const NOT_REAL = 'is not a real date';

/** A string in `format` (a regular expression) naming a real moment, normalised to the stored UTC ISO form. */
function isoInstant(format: RegExp, formatMessage: string, toParsable: (value: string) => string = (v) => v) {
  return z
    .string()
    .trim()
    .regex(format, formatMessage)
    .transform((value, ctx) => {
      const time = parseRealDate(toParsable(value));
      if (Number.isNaN(time)) {
        ctx.addIssue({ code: 'custom', message: NOT_REAL });
        return z.NEVER;
      }
      return new Date(time).toISOString();
    });
}

/** An ISO timestamp with its zone (`2026-12-05T18:00:00+08:00`), normalised to UTC. */
export const IsoTimestamp = isoInstant(
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/,
  'must be an ISO timestamp with a time zone',
);

/** An ISO timestamp, or a date (`2026-11-22` = that day's start in UTC), normalised to UTC. */
export const IsoDateOrTimestamp = isoInstant(
  /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/,
  'must be a date (YYYY-MM-DD) or an ISO timestamp',
  (value) => (value.length === 10 ? `${value}T00:00:00Z` : value),
);

/** Any text the Date parser reads (list filters take dates and times as given), on a real calendar day; kept as sent. */
export const LooseDate = (message: string) =>
  z
    .string()
    .trim()
    .refine((v) => !Number.isNaN(Date.parse(v)), message)
    .refine(realCalendarDate, NOT_REAL);
