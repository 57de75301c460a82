import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

const SHIPPED = ['identity', 'risk_tolerance_asked', 'risk_match', 'risk_disclosure', 'fee_disclosure', 'no_guarantee', 'cooling_off'] as const;
type ShippedKey = (typeof SHIPPED)[number];

/** The default rules by key, in the reader's language; an admin's own rule shows its key. */
export function useRuleLabel(): (key: string) => string {
  const { t } = useTranslation();
  return useCallback((key: string) => ((SHIPPED as readonly string[]).includes(key) ? t(`compliance.rules.${key as ShippedKey}`) : key), [t]);
}

export const SHIPPED_RULE_KEYS: readonly string[] = SHIPPED;
