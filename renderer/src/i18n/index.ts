// i18next set up for the whole renderer: one namespace whose first key segment is the area file (see
// resources.ts), each language loaded on demand as one chunk with its antd and dayjs locales.
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Locale as AntdLocale } from 'antd/es/locale';
import { DEFAULT_LANGUAGE, LANGUAGES, lastLanguage, rememberLanguage, type Language } from './languages';
import type { Resources } from './resources';

export interface LanguagePack {
  resources: Resources;
  antd: AntdLocale;
  /** Sets dayjs's locale (antd's date pickers); kept in the pack so dayjs loads with the first page that needs it. */
  applyDayjs(): void;
}

const packs: Record<Language, () => Promise<{ default: LanguagePack }>> = {
  'zh-CN': () => import('./locales/zh-CN/index'),
  en: () => import('./locales/en/index'),
};
const loaded = new Map<Language, LanguagePack>();

async function loadPack(language: Language): Promise<LanguagePack> {
  let pack = loaded.get(language);
  if (!pack) {
    pack = (await packs[language]()).default;
    loaded.set(language, pack);
    if (i18n.isInitialized) i18n.addResourceBundle(language, 'translation', pack.resources);
  }
  return pack;
}

function applied(language: Language, pack: LanguagePack): void {
  pack.applyDayjs();
  document.documentElement.lang = language;
}

/** Loads the language last used on this machine (zh-CN the first time) and starts i18next with it. */
export async function startI18n(): Promise<void> {
  const language = lastLanguage();
  const pack = await loadPack(language);
  await i18n.use(initReactI18next).init({
    lng: language,
    fallbackLng: false,
    supportedLngs: [...LANGUAGES],
    load: 'currentOnly',
    resources: { [language]: { translation: pack.resources } },
    partialBundledLanguages: true,
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
  });
  applied(language, pack);
}

/** Switches the interface language at once and remembers it on this machine. */
export async function setLanguage(language: Language): Promise<void> {
  const pack = await loadPack(language);
  applied(language, pack);
  rememberLanguage(language);
  await i18n.changeLanguage(language);
}

export const currentLanguage = (): Language => (LANGUAGES.includes(i18n.language as Language) ? (i18n.language as Language) : DEFAULT_LANGUAGE);

/** antd's own strings (pagination, empty tables, date pickers) for a loaded language. */
export const antdLocaleOf = (language: Language): AntdLocale | undefined => loaded.get(language)?.antd;

export { i18n };
