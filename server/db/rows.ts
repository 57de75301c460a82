/** Drivers disagree on booleans (0/1 in SQLite), counts (strings in PostgreSQL) and JSON columns; these even them out. */
export const toBool = (v: unknown): boolean => v === true || v === 1 || v === '1' || v === 't' || v === 'true';

export const toNumber = (v: unknown): number => (typeof v === 'number' ? v : Number(v ?? 0));

export const toNullableNumber = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

export function parseJson<T>(v: unknown, fallback: T): T {
  if (v === null || v === undefined || v === '') return fallback;
  if (typeof v !== 'string') return v as T;
  try {
    return JSON.parse(v) as T;
  } catch {
    return fallback;
  }
}

export const countOf = (row: unknown): number => toNumber((row as { count?: unknown } | undefined)?.count ?? 0);
