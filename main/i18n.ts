// The main process's texts in the user's language: Chinese unless the system prefers English (the renderer has its
// own resources and follows the signed-in user's choice; menus and dialogs exist before anyone signs in).
import i18next from 'i18next';
import { zhCN, type MainTexts } from './locales/zh-CN.js';
import { en } from './locales/en.js';

export type MainLanguage = 'zh-CN' | 'en';

/** The first of the system's preferred languages that we have; Chinese when none is. */
export function pickLanguage(preferred: readonly string[]): MainLanguage {
  for (const tag of preferred) {
    const lower = tag.toLowerCase();
    if (lower.startsWith('zh')) return 'zh-CN';
    if (lower.startsWith('en')) return 'en';
  }
  return 'zh-CN';
}

type Paths<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Paths<T[K], `${Prefix}${K}.`>;
}[keyof T & string];
export type MainKey = Paths<MainTexts>;
export type MainT = (key: MainKey, params?: Record<string, string | number>) => string;

export function mainTranslator(language: MainLanguage): MainT {
  const instance = i18next.createInstance();
  void instance.init({
    lng: language,
    fallbackLng: 'zh-CN',
    resources: { 'zh-CN': { translation: zhCN }, en: { translation: en } },
    initAsync: false,
    interpolation: { escapeValue: false },
  });
  return (key, params) => instance.t(key, params);
}
