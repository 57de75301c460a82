// The version check of issue 10: this renderer was built for API_VERSION; the server says which version it runs.
// They differ when the window shows a renderer cached from an older install, or a central server runs another
// release: the page may then send requests the server no longer understands, so we say so plainly.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Alert, Button } from 'antd';
import { fetchFile } from '../api/download';
import { API_VERSION } from '../../../contract/envelope';
import type { Health } from '../api/types';

/** The version this renderer was built with (the contract it was compiled against). */
export const RENDERER_VERSION = API_VERSION;

export const healthQuery = () =>
  queryOptions({
    queryKey: ['health'] as const,
    // Outside the envelope, like a file.
    queryFn: async ({ signal }) => (await (await fetchFile('/health', { signal, cache: 'no-store' })).json()) as Health,
    staleTime: Infinity,
    // A server that comes back after a restart may have been updated meanwhile: ask again.
    refetchOnReconnect: 'always',
  });

export function VersionNotice() {
  const { t } = useTranslation();
  const server = useQuery(healthQuery()).data?.version;
  if (!server || server === RENDERER_VERSION) return null;
  return (
    <Alert
      data-testid="version-notice"
      className="version-notice"
      type="warning"
      banner
      showIcon
      role="alert"
      title={t('shell.versionMismatch.title', { app: RENDERER_VERSION, server })}
      description={t('shell.versionMismatch.text')}
      action={
        <Button size="small" onClick={() => window.location.reload()}>
          {t('shell.versionMismatch.reload')}
        </Button>
      }
    />
  );
}
