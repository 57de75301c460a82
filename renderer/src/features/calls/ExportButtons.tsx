import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Space } from 'antd';
import type { Transcription, TranscriptExportFormat } from '../../api/types';
import { downloadFile } from '../../api/download';
import { ErrorNotice } from '../../components/states';

const FORMATS: TranscriptExportFormat[] = ['docx', 'txt', 'srt', 'vtt'];

/** The transcript (the revision shown) as a Word document, text or subtitles, in the interface language. */
export function ExportButtons({ transcription }: { transcription: Transcription }) {
  const { t, i18n } = useTranslation();
  const [busy, setBusy] = useState<TranscriptExportFormat | null>(null);
  const [error, setError] = useState<unknown>(null);
  const stem = transcription.filename.replace(/\.[^.]+$/, '') || 'transcript';
  const lang = i18n.language.startsWith('en') ? 'en' : 'zh-CN';
  const download = async (format: TranscriptExportFormat) => {
    setBusy(format);
    setError(null);
    try {
      await downloadFile(`/audio/transcriptions/${transcription.id}/export?format=${format}&revision=${transcription.revision}&lang=${lang}`, { name: `${stem}.${format}` });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  };
  return (
    <section aria-label={t('transcript.export.title')} className="section">
      <Space wrap>
        <strong>{t('transcript.export.title')}</strong>
        {FORMATS.map((format) => (
          <Button key={format} size="small" loading={busy === format} onClick={() => void download(format)}>
            {t(`transcript.export.${format}`)}
          </Button>
        ))}
      </Space>
      {error !== null && <ErrorNotice error={error} />}
    </section>
  );
}
