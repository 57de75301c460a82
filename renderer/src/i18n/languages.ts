import type { Locale } from '../api/types';

/** Interface languages, the default first. The server stores a user's choice as one of these (users.locale). */
export const LANGUAGES = ['zh-CN', 'en'] as const satisfies readonly Locale[];
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'zh-CN';

/** Each language named in itself, so that anyone can find their own. */
export const LANGUAGE_NAMES: Record<Language, string> = { 'zh-CN': '中文', en: 'English' };

const STORAGE_KEY = 'trainbench.locale';

export const isLanguage = (value: unknown): value is Language => LANGUAGES.includes(value as Language);

/** The language last chosen on this machine (used before login), else the default. */
export function lastLanguage(): Language {
  const stored = localStorage.getItem(STORAGE_KEY);
  return isLanguage(stored) ? stored : DEFAULT_LANGUAGE;
}

export function rememberLanguage(language: Language): void {
  localStorage.setItem(STORAGE_KEY, language);
}
