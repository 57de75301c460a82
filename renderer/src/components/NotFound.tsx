import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from 'antd';

/** A whole-page message with one way on: not found, or a page that failed. */
export function PageMessage({ title, text, action }: { title: string; text: string; action: ReactNode }) {
  return (
    <div className="page-message">
      <h1 className="result-title">{title}</h1>
      <p className="muted">{text}</p>
      {action}
    </div>
  );
}

export function NotFound() {
  const { t } = useTranslation();
  return (
    <PageMessage
      title={t('shell.notFound.title')}
      text={t('shell.notFound.text')}
      action={
        <Button type="primary" href="#/">
          {t('shell.notFound.home')}
        </Button>
      }
    />
  );
}
