import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Table, type TableColumnsType } from 'antd';
import { ApiError } from '../../api/client';
import type { TranscriptionJob } from '../../api/types';
import { StatusTag } from '../../components/StatusTag';
import { ErrorNotice } from '../../components/states';
import { describeError } from '../../i18n/errors';
import { useFormat } from '../../i18n/format';
import { callsQueries } from './queries';
import { useRetryJob } from './mutations';

/** The reason a job failed, in the reader's language (what a synchronous request would have answered). */
export const jobFailure = (job: TranscriptionJob) =>
  new ApiError(job.error?.status ?? 500, job.error?.code ?? 'internal_error', job.error?.message ?? '', job.error?.details);

/** Failed transcriptions stay in the rep's list, with their reason and a retry, until retried. Nothing when none. */
export function FailedJobs({ onRetried }: { onRetried(job: TranscriptionJob): void }) {
  const { t } = useTranslation();
  const format = useFormat();
  const failed = useQuery(callsQueries.failedJobs());
  const retry = useRetryJob();
  if (!failed.data?.length) return null;

  const columns: TableColumnsType<TranscriptionJob> = [
    { title: t('calls.list.file'), dataIndex: 'filename' },
    { title: t('calls.list.created'), dataIndex: 'created_at', render: (iso: string) => format.dateTime(iso) },
    { title: t('calls.list.status'), key: 'status', render: () => <StatusTag tone="danger">{t('calls.list.failed')}</StatusTag> },
    { title: t('calls.list.reason'), key: 'reason', render: (_, job) => describeError(jobFailure(job), t).message },
    {
      title: '',
      key: 'retry',
      render: (_, job) => (
        <Button size="small" loading={retry.isPending && retry.variables === job.id} onClick={() => retry.mutate(job.id, { onSuccess: onRetried })}>
          {t('calls.list.retry')}
        </Button>
      ),
    },
  ];
  return (
    <div className="section">
      <Table<TranscriptionJob> aria-label={t('calls.list.failedTitle')} title={() => t('calls.list.failedTitle')} size="small" rowKey="id" columns={columns} dataSource={failed.data} pagination={false} />
      {retry.error && <ErrorNotice error={retry.error} />}
    </div>
  );
}
