/** Timestamps are stored as ISO 8601 strings with milliseconds in UTC: sortable and identical on every dialect. */
export const now = (): string => new Date().toISOString();
