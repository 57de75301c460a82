import { useTranslation } from 'react-i18next';
import { Card, Table, type TableColumnsType } from 'antd';
import type { CallFigures, SpeakerFigures } from '../../api/types';
import { formatClock, useFormat } from '../../i18n/format';
import { speakerClass, speakerName } from '../calls/speakers';

/** The call's figures, computed in code from the labelled transcript: one row per speaker. */
export function Figures({ figures, rep }: { figures: CallFigures; rep: string }) {
  const { t } = useTranslation();
  const format = useFormat();
  const columns: TableColumnsType<SpeakerFigures> = [
    { title: t('coaching.figures.speaker'), key: 'speaker', render: (_, s) => <span className={speakerClass(s.speaker, rep)}>{speakerName(t, s.speaker)}</span> },
    { title: t('coaching.figures.talk'), key: 'talk', render: (_, s) => `${formatClock(s.talk_seconds)} (${format.percent(s.talk_ratio * 100)})` },
    { title: t('coaching.figures.turns'), dataIndex: 'turns' },
    { title: t('coaching.figures.questions'), dataIndex: 'questions' },
    { title: t('coaching.figures.interruptions'), dataIndex: 'interruptions' },
    { title: t('coaching.figures.monologue'), key: 'monologue', render: (_, s) => formatClock(s.longest_monologue_seconds) },
  ];
  return (
    <section aria-label={t('coaching.figures.title')} className="section">
      <Card
        size="small"
        title={<h2 className="card-heading">{t('coaching.figures.title')}</h2>}
        extra={t('coaching.figures.summary', { duration: formatClock(figures.duration_seconds), silence: formatClock(figures.silence_seconds) })}
      >
        <Table<SpeakerFigures> aria-label={t('coaching.figures.title')} size="small" pagination={false} columns={columns} dataSource={figures.speakers} rowKey="speaker" />
      </Card>
    </section>
  );
}
