import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button } from 'antd';
import { api } from '../api/client';
import type { MyPreferences, User } from '../api/types';
import { setLanguage } from '../i18n';
import { LANGUAGES, LANGUAGE_NAMES, type Language } from '../i18n/languages';
import { useSession } from './session';

/**
 * 中文 | English, in the header and on the login screen: each language named in itself, the group named in both,
 * so that someone who cannot read the current language still finds it. Switches at once, remembers the choice
 * on this machine and, for a signed-in user, on the server (applied at their next login anywhere).
 */
export function LanguageSwitch() {
  const { i18n } = useTranslation();
  const { user, update } = useSession();
  const save = useMutation({
    mutationFn: (locale: Language) => api.put<User>('/auth/me', { locale } satisfies MyPreferences),
    onSuccess: update,
  });
  const choose = async (language: Language) => {
    await setLanguage(language);
    if (user) save.mutate(language);
  };
  return (
    <div className="language-switch" role="group" aria-label="语言 Language">
      {LANGUAGES.map((language) => (
        <Button key={language} size="small" lang={language} type={i18n.language === language ? 'primary' : 'default'} aria-pressed={i18n.language === language} onClick={() => void choose(language)}>
          {LANGUAGE_NAMES[language]}
        </Button>
      ))}
    </div>
  );
}
