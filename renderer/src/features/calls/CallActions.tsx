import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Card, Col, Form, Radio, Row, Typography } from 'antd';
import type { Transcription } from '../../api/types';
import { RichText } from '../../components/RichText';
import { ErrorNotice } from '../../components/states';
import { ProductPicker } from '../coach/ProductPicker';
import { useCreateReport } from '../coaching/mutations';
import { useCallAnalysis } from './mutations';
import { speakerName, speakersOf } from './speakers';

/** What a speaker-labelled call can become: the call_analysis skill's report, or a coaching report. */
export function CallActions({ transcription }: { transcription: Transcription }) {
  const { t } = useTranslation();
  if (!transcription.has_speakers)
    return (
      <section aria-label={t('calls.actions.title')} className="section">
        <Alert type="info" showIcon title={t('calls.actions.needsSpeakers')} />
      </section>
    );
  return (
    <Row gutter={16} className="section">
      <Col xs={24} lg={12}>
        <CoachingCard transcription={transcription} />
      </Col>
      <Col xs={24} lg={12}>
        <AnalysisCard transcription={transcription} />
      </Col>
    </Row>
  );
}

function CoachingCard({ transcription }: { transcription: Transcription }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const speakers = speakersOf(transcription.segments);
  const [rep, setRep] = useState(speakers.includes('rep') ? 'rep' : speakers[0]!);
  const [productId, setProductId] = useState<number | undefined>();
  const create = useCreateReport();
  return (
    <section aria-label={t('calls.coaching.title')}>
      <Card title={<h2 className="card-heading">{t('calls.coaching.title')}</h2>}>
        <Typography.Paragraph type="secondary">{t('calls.coaching.intro')}</Typography.Paragraph>
        <Form layout="vertical" disabled={create.isPending}>
          <Form.Item label={t('calls.coaching.rep')}>
            <Radio.Group aria-label={t('calls.coaching.rep')} value={rep} onChange={(e) => setRep(e.target.value as string)} options={speakers.map((s) => ({ value: s, label: speakerName(t, s) }))} />
          </Form.Item>
          <Form.Item label={t('calls.coaching.product')} extra={t('calls.coaching.productHint')}>
            <ProductPicker value={productId} onChange={setProductId} />
          </Form.Item>
          <Button
            type="primary"
            loading={create.isPending}
            onClick={() => create.mutate({ transcription_id: transcription.id, rep_speaker: rep, ...(productId ? { product_id: productId } : {}) }, { onSuccess: (report) => void navigate(`/coaching/reports/${report.id}`) })}
          >
            {create.isPending ? t('calls.coaching.creating') : t('calls.coaching.create')}
          </Button>
        </Form>
        {create.error && <ErrorNotice error={create.error} />}
      </Card>
    </section>
  );
}

function AnalysisCard({ transcription }: { transcription: Transcription }) {
  const { t } = useTranslation();
  const analysis = useCallAnalysis();
  const artifact = analysis.data;
  return (
    <section aria-label={t('calls.analysis.title')}>
      <Card title={<h2 className="card-heading">{t('calls.analysis.title')}</h2>}>
        <Typography.Paragraph type="secondary">{t('calls.analysis.intro')}</Typography.Paragraph>
        <Button loading={analysis.isPending} onClick={() => analysis.mutate({ transcriptionId: transcription.id, message: t('calls.analysis.message', { name: transcription.filename }) })}>
          {analysis.isPending ? t('calls.analysis.running') : t('calls.analysis.run')}
        </Button>
        {analysis.error && <ErrorNotice error={analysis.error} />}
        {artifact && (
          <div className="section-top" aria-label={t('calls.analysis.result')} role="region">
            {artifact.kind === 'report' ? <RichText content={artifact.content} /> : <pre className="pre-wrap">{JSON.stringify(artifact.content, null, 2)}</pre>}
          </div>
        )}
      </Card>
    </section>
  );
}
