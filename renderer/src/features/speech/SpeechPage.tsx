import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Card, Table, Typography, type TableColumnsType } from 'antd';
import { PageHeader } from '../../components/PageHeader';
import { StatusTag } from '../../components/StatusTag';
import { EmptyState, QueryView } from '../../components/states';
import { speechQueries, type AudioRouteRow } from './queries';
import { plainReasons } from './reasons';
import { ModelsCard } from './ModelsCard';

/** Speech-to-text on this machine: which audio routes can run and why not, and the whisper models installed. */
export default function SpeechPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('speech.title')} subtitle={t('speech.subtitle')} />
      <RoutesCard />
      <ModelsCard />
    </>
  );
}

function RoutesCard() {
  const { t } = useTranslation();
  const routes = useQuery(speechQueries.routes());
  const columns: TableColumnsType<AudioRouteRow> = [
    { title: t('speech.routes.name'), dataIndex: 'name' },
    { title: t('speech.routes.where'), key: 'where', render: (_, r) => t(r.is_local ? 'speech.routes.local' : 'speech.routes.cloud') },
    { title: t('speech.routes.model'), dataIndex: 'model' },
    {
      title: t('speech.routes.status'),
      key: 'status',
      render: (_, r) =>
        r.available ? (
          <StatusTag tone="success">{t('speech.routes.available')}</StatusTag>
        ) : (
          <>
            <StatusTag tone="danger">{t('speech.routes.unavailable')}</StatusTag>
            {plainReasons(r.reason_unavailable ?? '', t).map((reason) => (
              <div key={reason}>
                <Typography.Text type="secondary">{reason}</Typography.Text>
              </div>
            ))}
          </>
        ),
    },
  ];
  return (
    <section aria-label={t('speech.routes.title')} className="section">
      <Card title={<h2 className="card-heading">{t('speech.routes.title')}</h2>}>
        <Typography.Paragraph type="secondary">{t('speech.routes.intro')}</Typography.Paragraph>
        <QueryView query={routes}>
          {(list) =>
            list.length ? (
              <Table<AudioRouteRow> aria-label={t('speech.routes.title')} size="small" pagination={false} columns={columns} dataSource={list} rowKey="id" />
            ) : (
              <EmptyState>{t('speech.routes.none')}</EmptyState>
            )
          }
        </QueryView>
      </Card>
    </section>
  );
}
