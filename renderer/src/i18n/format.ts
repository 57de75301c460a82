import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Dates, numbers and sizes in the interface language (Intl, keyed by i18next's current language). Use it for
 * every number or date a person reads; pass the numbers to t() only through these.
 */
export function useFormat() {
  const { i18n } = useTranslation();
  const language = i18n.language;
  return useMemo(() => formatters(language), [language]);
}

export type Formatters = ReturnType<typeof formatters>;

export function formatters(language: string) {
  const dateTime = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
  const date = new Intl.DateTimeFormat(language, { dateStyle: 'medium' });
  const number = new Intl.NumberFormat(language, { maximumFractionDigits: 2 });
  const unit = (name: string, value: number, digits = 0) =>
    new Intl.NumberFormat(language, { style: 'unit', unit: name, unitDisplay: 'short', maximumFractionDigits: digits }).format(value);
  const valid = (iso: string | null | undefined) => (iso && !Number.isNaN(Date.parse(iso)) ? new Date(iso) : null);
  return {
    dateTime: (iso: string | null | undefined) => {
      const d = valid(iso);
      return d ? dateTime.format(d) : (iso ?? '');
    },
    date: (iso: string | null | undefined) => {
      const d = valid(iso);
      return d ? date.format(d) : (iso ?? '');
    },
    number: (value: number) => number.format(value),
    percent: (value: number) => unit('percent', value, 2),
    minutes: (value: number) => new Intl.NumberFormat(language, { style: 'unit', unit: 'minute', unitDisplay: 'long' }).format(value),
    /** 482113 → "471 KB". */
    bytes: (bytes: number) => {
      const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte'];
      let value = bytes;
      let i = 0;
      while (value >= 1024 && i < units.length - 1) {
        value /= 1024;
        i++;
      }
      return unit(units[i]!, value, i === 0 ? 0 : value < 10 ? 1 : 0);
    },
  };
}

/** 75 → "1:15"; 3725 → "1:02:05" (a countdown reads the same in every language). */
export function formatClock(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const [h, m, sec] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  const pad = (n: number) => String(n).padStart(2, '0');
  return h ? `${h}:${pad(m)}:${pad(sec)}` : `${m}:${pad(sec)}`;
}

/** "capital_consulting" → "Capital consulting": data keys written by admins, shown as words. */
export function humanize(value: string): string {
  const words = value.replace(/[_-]+/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : '';
}
