import { useTranslation } from 'react-i18next';
import { Alert, Typography } from 'antd';
import type { Transcription } from '../../api/types';
import { StatusTag } from '../../components/StatusTag';
import { formatClock } from '../../i18n/format';
import { speakerClass, speakerName, speakersOf } from './speakers';

/** Which route transcribed the call, and plainly when the audio left this machine or speakers were lost. */
export function TranscriptNotices({ transcription }: { transcription: Transcription }) {
  const { t } = useTranslation();
  const { route } = transcription;
  const cloud = !route.is_local;
  return (
    <>
      <Typography.Paragraph>
        {t('calls.transcript.route', { name: route.name })} <StatusTag tone={cloud ? 'warning' : 'success'}>{t(cloud ? 'calls.transcript.cloud' : 'calls.transcript.local')}</StatusTag>
      </Typography.Paragraph>
      {transcription.left_local && <Alert className="section" type="warning" showIcon title={t('calls.transcript.leftLocal', { name: route.name })} description={transcription.capability_zh} />}
      {!transcription.left_local && cloud && <Alert className="section" type="info" showIcon title={t('calls.transcript.sentToCloud', { name: route.name })} />}
      {transcription.capability_degraded && !transcription.left_local && <Alert className="section" type="warning" showIcon title={t('calls.transcript.degraded')} description={transcription.capability_zh} />}
    </>
  );
}

/** The transcript, one line per segment: its time on the call, its speaker in that speaker's colour, the words. */
export function TranscriptView({ transcription, firstSpeaker }: { transcription: Transcription; firstSpeaker?: string }) {
  const { t } = useTranslation();
  const first = firstSpeaker ?? speakersOf(transcription.segments)[0];
  return (
    <ol className="transcript" aria-label={t('calls.transcript.label')}>
      {transcription.segments.map((segment, i) => (
        <li key={i} className="transcript-line">
          <span className="transcript-time">{formatClock(segment.start)}</span>
          {segment.speaker && <span className={speakerClass(segment.speaker, first)}>{speakerName(t, segment.speaker)}</span>}
          <span className="transcript-text">{segment.text}</span>
        </li>
      ))}
    </ol>
  );
}
