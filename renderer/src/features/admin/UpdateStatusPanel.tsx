import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Card, Descriptions, Progress } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { QueryView } from '../../components/states';
import { useFormat } from '../../i18n/format';
import type { UpdateStatus } from '../../api/types';
import { adminQueries } from './queries';

/** What the desktop updater knows (installed, available, downloaded), so that an admin can stage an update. */
export function UpdateStatusPanel() {
  const { t } = useTranslation();
  const status = useQuery(adminQueries.updateStatus());
  return (
    <Card className="section" data-testid="update-status">
      <h2 className="card-heading">{t('system.status.title')}</h2>
      <QueryView query={status}>{(data) => <StatusDetails status={data} />}</QueryView>
      <Button icon={<ReloadOutlined aria-hidden />} onClick={() => void status.refetch()} loading={status.isFetching}>
        {t('system.status.refresh')}
      </Button>
    </Card>
  );
}

function StatusDetails({ status }: { status: UpdateStatus }) {
  const { t } = useTranslation();
  const format = useFormat();
  const none = t('system.status.none');
  const items = [
    { key: 'state', label: t('system.status.state'), children: t(`system.status.states.${status.state}`) },
    { key: 'installed', label: t('system.status.installed'), children: status.installed_version },
    { key: 'available', label: t('system.status.available'), children: status.available_version ?? none },
    { key: 'downloaded', label: t('system.status.downloaded'), children: status.downloaded_version ?? none },
    { key: 'feed', label: t('system.status.feed'), children: status.feed_url ?? none },
    { key: 'lastChecked', label: t('system.status.lastChecked'), children: status.last_checked_at ? format.dateTime(status.last_checked_at) : none },
    { key: 'nextCheck', label: t('system.status.nextCheck'), children: status.next_check_at ? format.dateTime(status.next_check_at) : none },
    { key: 'error', label: t('system.status.error'), children: status.error ?? none },
  ];
  return (
    <>
      {!status.applies && <p title={status.reason ?? undefined}>{t('system.status.notApplicableHint')}</p>}
      {status.progress && <Progress percent={Math.floor(status.progress.percent)} aria-label={t('system.update.progress')} />}
      <Descriptions size="small" column={{ xs: 1, md: 2 }} items={items} className="section" />
    </>
  );
}
