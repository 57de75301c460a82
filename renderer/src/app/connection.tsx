import { useSyncExternalStore } from 'react';
import { onlineManager, useIsMutating } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Alert } from 'antd';

const subscribe = (onChange: () => void) => onlineManager.subscribe(onChange);
const isOnline = () => onlineManager.isOnline();

export const useServerOnline = () => useSyncExternalStore(subscribe, isOnline);

/** While the server does not answer: say so, say we keep trying, and count the changes waiting to be sent. */
export function ConnectionBanner() {
  const { t } = useTranslation();
  const online = useServerOnline();
  const waiting = useIsMutating({ predicate: (mutation) => mutation.state.isPaused });
  if (online) return null;
  return (
    <Alert
      data-testid="connection-banner"
      className="connection-banner"
      type="warning"
      banner
      showIcon
      role="status"
      title={t('shell.connection.reconnecting')}
      description={waiting > 0 ? t('shell.connection.waiting', { count: waiting }) : t('shell.connection.keepWorking')}
    />
  );
}
