import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Card, Flex, Typography } from 'antd';
import { LanguageSwitch } from '../../app/LanguageSwitch';

/** The frame of the screens before the app: the brand, the language switch and the screen's title over its form. */
export function AuthScreen({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <main className="login-screen">
      <Card className="login-card">
        <Flex justify="space-between" align="center" className="login-top">
          <div className="brand brand-large">
            <span className="brand-mark" aria-hidden>
              T
            </span>
            {t('shell.appName')}
          </div>
          <LanguageSwitch />
        </Flex>
        <Typography.Title level={1} className="login-title">
          {title}
        </Typography.Title>
        {children}
      </Card>
    </main>
  );
}
