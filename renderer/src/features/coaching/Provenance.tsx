import { useTranslation } from 'react-i18next';
import { Button, Typography } from 'antd';
import { CaretRightOutlined } from '@ant-design/icons';
import type { Citation, SegmentRef } from '../../api/types';
import { formatClock } from '../../i18n/format';
import { speakerClass, speakerName } from '../calls/speakers';
import { usePlayer } from './CallPlayer';

/** A quote from the call: when, who (the rep in one colour, the customer in the other), the words, and play from there. */
export function SegmentQuote({ segment, rep }: { segment: SegmentRef; rep: string }) {
  const { t } = useTranslation();
  const play = usePlayer();
  const time = `${formatClock(segment.start)}–${formatClock(segment.end)}`;
  return (
    <figure className="quote">
      <figcaption className="transcript-line">
        <span className="transcript-time">{time}</span>
        <span className={speakerClass(segment.speaker, rep)}>{speakerName(t, segment.speaker)}</span>
        {play && segment.audio_url && (
          <Button size="small" type="text" icon={<CaretRightOutlined aria-hidden />} onClick={() => play(segment.audio_url!)} aria-label={t('coaching.player.playFrom', { time: formatClock(segment.start) })}>
            {t('coaching.player.play')}
          </Button>
        )}
      </figcaption>
      <blockquote className="quote-text">{segment.quote}</blockquote>
    </figure>
  );
}

export function SegmentQuotes({ segments, rep }: { segments: SegmentRef[]; rep: string }) {
  return (
    <>
      {segments.map((segment) => (
        <SegmentQuote key={segment.index} segment={segment} rep={rep} />
      ))}
    </>
  );
}

/** What a finding rests on: the approved knowledge chunk (as it was when the call was analysed) or the product field. */
export function CitationView({ citation }: { citation: Citation }) {
  const { t } = useTranslation();
  if (citation.type === 'product_field')
    return (
      <div className="citation">
        <Typography.Text type="secondary">{t('coaching.citation.field', { product: citation.product_name, label: citation.label })}</Typography.Text> <Typography.Text strong>{String(citation.value)}</Typography.Text>
      </div>
    );
  return (
    <div className="citation">
      <Typography.Text type="secondary">{t('coaching.citation.chunk', { title: citation.source.title, id: citation.chunk_id })}</Typography.Text>
      <Typography.Paragraph className="citation-text" ellipsis={{ rows: 3, expandable: true, symbol: t('coaching.citation.more') }}>
        {citation.text}
      </Typography.Paragraph>
    </div>
  );
}

export function Citations({ citations }: { citations: Citation[] }) {
  const { t } = useTranslation();
  if (!citations.length) return null;
  return (
    <div className="citations" role="group" aria-label={t('coaching.citation.label')}>
      <Typography.Text strong>{t('coaching.citation.label')}</Typography.Text>
      {citations.map((c) => (
        <CitationView key={c.type === 'chunk' ? `chunk-${c.chunk_id}` : `field-${c.product_id}-${c.field}`} citation={c} />
      ))}
    </div>
  );
}
