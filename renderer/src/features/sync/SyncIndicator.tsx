import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CloudOutlined, CloudSyncOutlined, DisconnectOutlined } from '@ant-design/icons';
import { StatusTag } from '../../components/StatusTag';
import { useFormat } from '../../i18n/format';
import { syncQueries } from './queries';
import { stateTone } from './state';

/**
 * The header's sync indicator on an enrolled branch: online or not, and when it last synced (nothing elsewhere).
 * Loaded after the first screen (Shell), so its tag and icons stay out of the first load.
 */
export default function SyncIndicator() {
  const { t } = useTranslation();
  const format = useFormat();
  const indicator = useQuery(syncQueries.indicator()).data;
  if (!indicator?.enrolled) return null;
  const Icon = indicator.state === 'running' ? CloudSyncOutlined : indicator.state === 'idle' ? CloudOutlined : DisconnectOutlined;
  const last = indicator.last_success_at ? t('branchSync.indicator.last', { time: format.dateTime(indicator.last_success_at) }) : t('branchSync.indicator.never');
  const label = `${t(indicator.state === 'idle' ? 'branchSync.indicator.online' : indicator.state === 'running' ? 'branchSync.state.running' : 'branchSync.indicator.offline')} · ${last}`;
  return (
    <span role="status" aria-label={label} title={label} data-testid="sync-indicator" data-state={indicator.state}>
      <StatusTag tone={stateTone[indicator.state]}>
        <Icon aria-hidden /> {t(indicator.state === 'idle' ? 'branchSync.indicator.online' : indicator.state === 'running' ? 'branchSync.state.running' : 'branchSync.indicator.offline')}
      </StatusTag>
    </span>
  );
}
