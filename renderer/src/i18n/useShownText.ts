import { useTranslation } from 'react-i18next';
import { BUILTIN_TEXTS, SHIPPED_TEXTS, type ShippedKey } from '../../../contract/workbench';
import { DEFAULT_LANGUAGE, isLanguage } from './languages';

interface Named {
  key: string;
  name: string;
  description?: string;
}

const isShipped = (key: string): key is ShippedKey => Object.hasOwn(SHIPPED_TEXTS, key);

/**
 * A skill's or specialist's name and description as the reader sees them: a built-in's shipped text (stored in
 * English) in the reader's language while it is unchanged, and whatever an admin wrote as written.
 */
export function useShownText() {
  const { i18n } = useTranslation();
  const texts = BUILTIN_TEXTS[isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE];
  return ({ key, name, description = '' }: Named): { name: string; description: string } => {
    if (!isShipped(key)) return { name, description };
    const shipped: { name: string; description?: string } = SHIPPED_TEXTS[key];
    const translated = texts[key];
    return {
      name: name === shipped.name ? translated.name : name,
      description: shipped.description !== undefined && description === shipped.description ? (translated.description ?? description) : description,
    };
  };
}
