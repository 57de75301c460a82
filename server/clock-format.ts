// Instants as the firm's clock shows them: dates and times printed by the server (certificates, exports,
// notifications) are in the `timezone` system setting (default Asia/Shanghai), never in the process's own zone.
export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';

const formatters = new Map<string, Intl.DateTimeFormat>();

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone.length > 0;
  } catch {
    return false;
  }
}

function partsIn(instant: string | number | Date, zone: string): Record<'year' | 'month' | 'day' | 'hour' | 'minute', string> {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formatters.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(instant)).map((p) => [p.type, p.value]));
  return parts as Record<'year' | 'month' | 'day' | 'hour' | 'minute', string>;
}

/** `YYYY-MM-DD` in the zone. */
export function dateIn(instant: string | number | Date, zone: string): string {
  const p = partsIn(instant, zone);
  return `${p.year}-${p.month}-${p.day}`;
}

/** `YYYY-MM-DD HH:mm` in the zone. */
export function dateTimeIn(instant: string | number | Date, zone: string): string {
  const p = partsIn(instant, zone);
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
}
