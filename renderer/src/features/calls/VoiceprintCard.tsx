// The caller's voiceprint (loaded only on the calls page when shown): what is stored, recording one in the browser
// (MediaRecorder) while reading a paragraph aloud, and deleting it.
import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Card, Popconfirm, Space, Typography } from 'antd';
import { ErrorNotice, QueryView } from '../../components/states';
import { useFormat } from '../../i18n/format';
import { callsQueries } from './queries';
import { useDeleteVoiceprint, useEnrolVoiceprint } from './mutations';

export default function VoiceprintCard() {
  const { t } = useTranslation();
  const format = useFormat();
  const status = useQuery(callsQueries.voiceprint());
  const enrol = useEnrolVoiceprint();
  const remove = useDeleteVoiceprint();
  const recorder = useRef<MediaRecorder | null>(null);
  const [seconds, setSeconds] = useState<number | null>(null);
  const [micError, setMicError] = useState(false);

  useEffect(() => () => recorder.current?.stream.getTracks().forEach((track) => track.stop()), []);
  useEffect(() => {
    if (seconds === null) return;
    const timer = setTimeout(() => setSeconds((s) => (s === null ? null : s + 1)), 1000);
    return () => clearTimeout(timer);
  }, [seconds]);

  const start = async () => {
    setMicError(false);
    enrol.reset();
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      const chunks: Blob[] = [];
      const rec = new MediaRecorder(stream);
      rec.ondataavailable = (e) => chunks.push(e.data);
      rec.onstop = () => {
        stream.getTracks().forEach((track) => track.stop());
        setSeconds(null);
        enrol.mutate(new Blob(chunks, { type: rec.mimeType || 'audio/webm' }));
      };
      recorder.current = rec;
      rec.start();
      setSeconds(0);
    } catch {
      setMicError(true);
    }
  };

  return (
    <section aria-label={t('transcript.voiceprint.title')} className="section">
      <Card title={<h2 className="card-heading">{t('transcript.voiceprint.title')}</h2>}>
        <Typography.Paragraph type="secondary">{t('transcript.voiceprint.what')}</Typography.Paragraph>
        <QueryView query={status}>
          {(vp) => (
            <>
              <Typography.Paragraph strong>
                {vp.enrolled ? t('transcript.voiceprint.enrolled', { date: format.dateTime(vp.created_at!), seconds: vp.speech_seconds }) : t('transcript.voiceprint.none')}
              </Typography.Paragraph>
              <Typography.Paragraph>{t('transcript.voiceprint.read')}</Typography.Paragraph>
              <blockquote className="voiceprint-paragraph">{t('transcript.voiceprint.paragraph')}</blockquote>
              <Space wrap>
                {seconds === null ? (
                  <Button type="primary" onClick={() => void start()} loading={enrol.isPending}>
                    {t('transcript.voiceprint.start')}
                  </Button>
                ) : (
                  <Button type="primary" danger onClick={() => recorder.current?.stop()}>
                    {t('transcript.voiceprint.stop')} · {t('transcript.voiceprint.recording', { seconds })}
                  </Button>
                )}
                {vp.enrolled && (
                  <Popconfirm title={t('transcript.voiceprint.delete')} onConfirm={() => remove.mutate()}>
                    <Button danger loading={remove.isPending}>
                      {t('transcript.voiceprint.delete')}
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            </>
          )}
        </QueryView>
        {micError && <Alert className="section" type="warning" showIcon title={t('transcript.voiceprint.noMicrophone')} />}
        {enrol.isSuccess && <Alert className="section" type="success" showIcon title={t('transcript.voiceprint.saved')} />}
        {enrol.error && <ErrorNotice error={enrol.error} />}
        {remove.error && <ErrorNotice error={remove.error} />}
      </Card>
    </section>
  );
}
