import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Empty } from 'antd';
import { Loading } from './Loading';

export { Loading };
import { describeError } from '../i18n/errors';

/** A failed request or action, in the interface language (i18n/errors.ts), with "try again" when it can be. */
export function ErrorNotice({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useTranslation();
  const { message, detail } = describeError(error, t);
  return (
    <Alert
      className="error-notice"
      type="error"
      showIcon
      role="alert"
      title={message}
      description={detail}
      action={
        onRetry && (
          <Button size="small" onClick={onRetry}>
            {t('common.action.retry')}
          </Button>
        )
      }
    />
  );
}

export function EmptyState({ children }: { children: ReactNode }) {
  return <Empty className="state-empty" image={Empty.PRESENTED_IMAGE_SIMPLE} description={children} />;
}

/** A query's loading state or error, then its data (kept on screen while it refreshes). */
export function QueryView<T>({ query, children }: { query: UseQueryResult<T>; children: (data: T) => ReactNode }) {
  if (query.data !== undefined) return <>{children(query.data)}</>;
  if (query.isError) return <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />;
  return <Loading />;
}
