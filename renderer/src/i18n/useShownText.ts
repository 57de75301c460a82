import { useTranslation } from 'react-i18next';
import { SHIPPED_TEXTS, type ShippedKey } from '../../../contract/workbench';

interface Named {
  key: string;
  name: string;
  description?: string;
}

const shippedText = (key: string) => (Object.hasOwn(SHIPPED_TEXTS, key) ? (SHIPPED_TEXTS[key as ShippedKey] as { name: string; description?: string }) : undefined);

/**
 * A skill's or specialist's name and description as the reader sees them: a built-in's shipped text (stored in
 * English) in the reader's language while it is unchanged, and whatever an admin wrote as written.
 */
export function useShownText() {
  const { t } = useTranslation();
  return ({ key, name, description = '' }: Named): { name: string; description: string } => {
    const shipped = shippedText(key);
    return {
      name: shipped && name === shipped.name ? t(`ai.builtins.${key as ShippedKey}.name`) : name,
      description: shipped?.description && description === shipped.description ? t(`ai.builtins.${key as Exclude<ShippedKey, 'general_assistant'>}.description`) : description,
    };
  };
}
