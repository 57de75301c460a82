import { lazy, Suspense, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Card, Space, Tag } from 'antd';
import { NotFound } from '../../components/NotFound';
import { PageHeader } from '../../components/PageHeader';
import { QueryView } from '../../components/states';
import { useIdParam } from '../../components/useIdParam';
import { formatClock, useFormat } from '../../i18n/format';
import { callsQueries } from './queries';
import { CallActions } from './CallActions';
import { TranscriptNotices, TranscriptView } from './TranscriptView';
import { ExportButtons } from './ExportButtons';
import { Loading } from '../../components/states';

const TranscriptEditor = lazy(() => import('./TranscriptEditor'));

/** One transcribed call: route and notices, the transcript by speaker, and what to do with it next. */
export default function TranscriptionPage() {
  const id = useIdParam();
  return id === null ? <NotFound /> : <Transcription id={id} />;
}

function Transcription({ id }: { id: number }) {
  const { t } = useTranslation();
  const format = useFormat();
  const transcription = useQuery(callsQueries.transcription(id));
  const client = useQueryClient();
  const [editing, setEditing] = useState(false);
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
            <Space wrap className="section">
              {call.speaker_method && <Tag>{t(`transcript.match.method_${call.speaker_method}`)}</Tag>}
              {call.rep_match && <Tag color="green">{t('transcript.match.rep', { similarity: call.rep_match.similarity.toFixed(2) })}</Tag>}
              {call.speech_seconds !== null && <Tag>{t('transcript.match.speech', { seconds: Math.round(call.speech_seconds) })}</Tag>}
              <Tag>{t('transcript.editor.revision', { revision: call.revision })}</Tag>
            </Space>
            <ExportButtons transcription={call} />
            <CallActions transcription={call} />
            {editing ? (
              <Suspense fallback={<Loading />}>
                <TranscriptEditor transcription={call} onSaved={(saved) => client.setQueryData(callsQueries.transcription(id).queryKey, saved)} />
              </Suspense>
            ) : (
              <section aria-label={t('calls.transcript.label')}>
                <Card
                  title={<h2 className="card-heading">{t('calls.transcript.label')}</h2>}
                  extra={
                    <Button type="primary" onClick={() => setEditing(true)}>
                      {t('transcript.editor.title')}
                    </Button>
                  }
                >
                  <TranscriptView transcription={call} />
                </Card>
              </section>
            )}
          </>
        )}
      </QueryView>
    </>
  );
}
