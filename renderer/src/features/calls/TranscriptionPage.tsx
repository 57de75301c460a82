import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Card } from 'antd';
import { NotFound } from '../../components/NotFound';
import { PageHeader } from '../../components/PageHeader';
import { QueryView } from '../../components/states';
import { useIdParam } from '../../components/useIdParam';
import { formatClock, useFormat } from '../../i18n/format';
import { callsQueries } from './queries';
import { CallActions } from './CallActions';
import { TranscriptNotices, TranscriptView } from './TranscriptView';

/** One transcribed call: route and notices, the transcript by speaker, and what to do with it next. */
export default function TranscriptionPage() {
  const id = useIdParam();
  return id === null ? <NotFound /> : <Transcription id={id} />;
}

function Transcription({ id }: { id: number }) {
  const { t } = useTranslation();
  const format = useFormat();
  const transcription = useQuery(callsQueries.transcription(id));
  const data = transcription.data;
  return (
    <>
      <PageHeader
        title={data?.filename ?? t('calls.transcript.title')}
        subtitle={data && t('calls.transcript.subtitle', { date: format.dateTime(data.created_at), duration: formatClock(data.audio?.duration ?? data.segments.at(-1)?.end ?? 0) })}
        back={{ to: '/calls', label: t('calls.title') }}
      />
      <QueryView query={transcription}>
        {(call) => (
          <>
            <TranscriptNotices transcription={call} />
            <CallActions transcription={call} />
            <section aria-label={t('calls.transcript.label')}>
              <Card title={<h2 className="card-heading">{t('calls.transcript.label')}</h2>}>
                <TranscriptView transcription={call} />
              </Card>
            </section>
          </>
        )}
      </QueryView>
    </>
  );
}
