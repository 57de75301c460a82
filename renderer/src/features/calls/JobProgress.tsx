import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ParseKeys } from 'i18next';
import { Alert, Button, Card, Flex, Progress, Typography } from 'antd';
import type { TranscriptionJob, TranscriptionJobStage } from '../../api/types';
import { ErrorNotice, Loading } from '../../components/states';
import { callsKeys, callsQueries } from './queries';
import { useCancelJob, useRetryJob } from './mutations';
import { jobFailure } from './FailedJobs';

const stageLabel: Record<TranscriptionJobStage, ParseKeys> = {
  queued: 'calls.job.stage.queued',
  decoding: 'calls.job.stage.decoding',
  speakers: 'calls.job.stage.speakers',
  transcribing: 'calls.job.stage.transcribing',
  uploading: 'calls.job.stage.uploading',
  finished: 'calls.job.stage.finished',
};

/**
 * A transcription job followed live: stage, percent, queue place and route, with cancel; the transcript opens when it
 * is done; a failure says 失败 with its reason and a retry.
 */
export function JobProgress({ id, onRetried }: { id: number; onRetried(job: TranscriptionJob): void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const progress = useQuery(callsQueries.job(id));
  const cancel = useCancelJob();
  const retry = useRetryJob();
  const event = progress.data;

  useEffect(() => {
    if (event?.type !== 'done') return;
    void queryClient.invalidateQueries({ queryKey: [...callsKeys.all, 'transcriptions'] });
    void navigate(`/calls/${event.transcription_id}`, { replace: true });
  }, [event, navigate, queryClient]);

  // A failed job joins the list of failed ones below, where it stays until retried.
  useEffect(() => {
    if (event?.type === 'error') void queryClient.invalidateQueries({ queryKey: callsKeys.failedJobs });
  }, [event, queryClient]);

  const job: TranscriptionJob | undefined = event?.job;
  const running = job && (job.state === 'queued' || job.state === 'running');
  return (
    <section aria-label={t('calls.job.title')} className="section">
      <Card title={<h2 className="card-heading">{t('calls.job.title')}</h2>}>
        {progress.isError && <ErrorNotice error={progress.error} onRetry={() => void progress.refetch()} />}
        {!job && !progress.isError && <Loading />}
        {job && (
          <>
            <Typography.Paragraph>
              <Typography.Text strong>{job.filename}</Typography.Text>
            </Typography.Paragraph>
            <Flex align="center" gap="middle">
              <Progress className="job-progress" percent={job.percent} status={event?.type === 'error' ? 'exception' : running ? 'active' : undefined} aria-label={t('calls.job.progress')} />
              {running && (
                <Button danger loading={cancel.isPending} onClick={() => cancel.mutate(id)}>
                  {t('calls.job.cancel')}
                </Button>
              )}
            </Flex>
            <Typography.Text type="secondary" role="status">
              {job.state === 'failed' ? t('calls.job.failed') : job.state === 'queued' && job.queue_position !== null ? t('calls.job.queued', { position: job.queue_position }) : t(stageLabel[job.stage])}
              {job.route && ` · ${t('calls.job.route', { name: job.route.name })}`}
            </Typography.Text>
          </>
        )}
        {cancel.error && <ErrorNotice error={cancel.error} />}
        {event?.type === 'error' && <ErrorNotice error={jobFailure({ ...event.job, error: event.error })} onRetry={retry.isPending ? undefined : () => retry.mutate(id, { onSuccess: onRetried })} />}
        {retry.error && <ErrorNotice error={retry.error} />}
        {event?.type === 'cancelled' && <Alert className="section-top" type="info" showIcon title={t('calls.job.cancelled')} />}
      </Card>
    </section>
  );
}
