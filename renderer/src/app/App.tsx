import { useMemo } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ConfigProvider } from 'antd';
import { antdLocaleOf, currentLanguage } from '../i18n';
import { queryClient } from './query-client';
import { SessionProvider } from './session';
import { SignedInRoutes } from './routes';
import { themeFor } from './theme';

export function App() {
  // Re-renders on every language change: antd's own strings follow. No space inserted into two-character
  // Chinese button texts ("登 录"): it changes what screen readers and tests read.
  const { i18n } = useTranslation();
  const theme = useMemo(() => themeFor(i18n.language), [i18n.language]);
  return (
    <ConfigProvider locale={antdLocaleOf(currentLanguage())} theme={theme} button={{ autoInsertSpace: false }}>
      <QueryClientProvider client={queryClient}>
        <SessionProvider>
          <SignedInRoutes />
        </SessionProvider>
      </QueryClientProvider>
    </ConfigProvider>
  );
}
