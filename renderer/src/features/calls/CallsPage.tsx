import { Link, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TableColumnsType } from 'antd';
import type { TranscriptionSummary } from '../../api/types';
import { PageHeader } from '../../components/PageHeader';
import { StatusTag } from '../../components/StatusTag';
import { DataTable } from '../../components/list/DataTable';
import { useListParams } from '../../components/list/useListParams';
import { useFormat } from '../../i18n/format';
import { callsQueries } from './queries';
import { CallUpload } from './CallUpload';
import { JobProgress } from './JobProgress';
import { FailedJobs } from './FailedJobs';
import type { TranscriptionJob } from '../../api/types';
import { lazy, Suspense } from 'react';

const VoiceprintCard = lazy(() => import('./VoiceprintCard'));

/** Call transcription: send a recording, follow its job (kept in the URL), and the calls transcribed before. */
export default function CallsPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const [params, setParams] = useSearchParams();
  const jobParam = params.get('job');
  const jobId = jobParam && /^[1-9]\d{0,9}$/.test(jobParam) ? Number(jobParam) : null;
  const { page, setPage } = useListParams({});
  const transcriptions = useQuery(callsQueries.transcriptions(page));
  const follow = (job: TranscriptionJob) => setParams({ job: String(job.id) });

  const columns: TableColumnsType<TranscriptionSummary> = [
    { title: t('calls.list.file'), key: 'file', render: (_, c) => <Link to={`/calls/${c.id}`}>{c.filename}</Link> },
    { title: t('calls.list.created'), dataIndex: 'created_at', render: (iso: string) => format.dateTime(iso) },
    {
      title: t('calls.list.speakers'),
      key: 'speakers',
      render: (_, c) => <StatusTag tone={c.has_speakers ? 'success' : 'neutral'}>{t(c.has_speakers ? 'calls.list.bySpeaker' : 'calls.list.noSpeakers')}</StatusTag>,
    },
    { title: t('calls.list.route'), key: 'route', render: (_, c) => `${c.route.name}${c.left_local || !c.route.is_local ? ` · ${t('calls.transcript.cloud')}` : ''}` },
  ];

  return (
    <>
      <PageHeader title={t('calls.title')} subtitle={t('calls.subtitle')} />
      <CallUpload onStarted={follow} />
      {jobId !== null && <JobProgress key={jobId} id={jobId} onRetried={follow} />}
      <Suspense fallback={null}>
        <VoiceprintCard />
      </Suspense>
      <h2 className="section-title">{t('calls.list.title')}</h2>
      <FailedJobs onRetried={follow} />
      <DataTable label={t('calls.list.title')} query={transcriptions} columns={columns} rowKey={(c) => c.id} onPage={setPage} empty={t('calls.list.empty')} />
    </>
  );
}
