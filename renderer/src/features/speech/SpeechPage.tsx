import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Card, Table, Typography, type TableColumnsType } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { PageHeader } from '../../components/PageHeader';
import { StatusTag } from '../../components/StatusTag';
import { EmptyState, QueryView } from '../../components/states';
import { speechQueries, type AudioRouteRow } from './queries';
import { plainReasons } from './reasons';
import { speakerProblemText } from './speaker-problems';
import { ModelsCard } from './ModelsCard';
import type { AiRoute } from '../../api/types';
import { aiQueries } from '../ai/queries';
import { RouteDialog } from '../ai/RouteDialog';
import { routeControlColumns } from '../ai/RouteControls';

/** Speech-to-text on this machine: the audio routes (added, edited, switched here) and whether each can run, and the whisper models installed. */
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

/** An audio route as the admin manages it, with what the server says it can do here (enabled routes only). */
type ManagedRoute = AiRoute & { status?: AudioRouteRow };

function RoutesCard() {
  const { t } = useTranslation();
  const routes = useQuery(aiQueries.audioRoutes());
  const statuses = useQuery(speechQueries.routes());
  const [editing, setEditing] = useState<AiRoute | 'new' | null>(null);
  const statusOf = new Map((statuses.data ?? []).map((r) => [r.id, r]));
  const columns: TableColumnsType<ManagedRoute> = [
    { title: t('speech.routes.name'), dataIndex: 'name' },
    { title: t('speech.routes.where'), key: 'where', render: (_, r) => t(r.provider === 'local-whisper' || r.is_local ? 'speech.routes.local' : 'speech.routes.cloud') },
    { title: t('speech.routes.model'), dataIndex: 'model' },
    { title: t('speech.routes.status'), key: 'status', render: (_, r) => <RouteStatus route={r} /> },
    ...routeControlColumns<ManagedRoute>(t, setEditing),
  ];
  return (
    <section aria-label={t('speech.routes.title')} className="section">
      <Card
        title={<h2 className="card-heading">{t('speech.routes.title')}</h2>}
        extra={
          <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setEditing('new')}>
            {t('speech.routes.new')}
          </Button>
        }
      >
        <Typography.Paragraph type="secondary">{t('speech.routes.intro')}</Typography.Paragraph>
        <QueryView query={routes}>
          {(list) =>
            list.length ? (
              <Table<ManagedRoute>
                aria-label={t('speech.routes.title')}
                size="small"
                pagination={false}
                columns={columns}
                dataSource={list.map((r) => ({ ...r, status: statusOf.get(r.id) }))}
                rowKey="id"
              />
            ) : (
              <EmptyState>{t('speech.routes.none')}</EmptyState>
            )
          }
        </QueryView>
      </Card>
      {editing && <RouteDialog kind="audio" route={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </section>
  );
}

/** Whether an enabled route can run here (and why not, in plain words); a disabled one says so. */
function RouteStatus({ route }: { route: ManagedRoute }) {
  const { t } = useTranslation();
  if (!route.enabled) return <StatusTag>{t('speech.routes.disabled')}</StatusTag>;
  if (!route.status) return null;
  const { speakers, decoder } = route.status;
  const extra = (
    <>
      {speakers && (
        <div>
          <StatusTag tone={speakers.available ? 'success' : 'warning'}>{t(speakers.available ? 'transcript.admin.speakersOn' : 'transcript.admin.speakersOff')}</StatusTag>
          {speakers.problems.length > 0 && <Typography.Text type="secondary">{speakers.problems.map((p) => speakerProblemText(p, t)).join(t('transcript.admin.problemSeparator'))}</Typography.Text>}
        </div>
      )}
      {decoder && (
        <div>
          <Typography.Text type="secondary">{t('transcript.admin.decoder', { source: t(`transcript.admin.decoderSource.${decoder.source}`), version: decoder.version || '?', path: decoder.path })}</Typography.Text>
        </div>
      )}
    </>
  );
  if (route.status.available)
    return (
      <>
        <StatusTag tone="success">{t('speech.routes.available')}</StatusTag>
        {extra}
      </>
    );
  return (
    <>
      {extra}
      <StatusTag tone="danger">{t('speech.routes.unavailable')}</StatusTag>
      {plainReasons(route.status.reason_unavailable ?? '', t).map((reason) => (
        <div key={reason}>
          <Typography.Text type="secondary">{reason}</Typography.Text>
        </div>
      ))}
    </>
  );
}
