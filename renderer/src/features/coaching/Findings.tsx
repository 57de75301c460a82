import { useTranslation } from 'react-i18next';
import { Card, Col, Row, Typography } from 'antd';
import type { CoachingReport, FactCheck, Objection, PracticeFocus } from '../../api/types';
import { StatusTag } from '../../components/StatusTag';
import { EmptyState } from '../../components/states';
import { handlingLabel, handlingTone } from './labels';
import { Citations, SegmentQuotes } from './Provenance';

/** Three things to practise, each with the quotes and knowledge it comes from. */
export function PracticeCards({ report }: { report: CoachingReport }) {
  const { t } = useTranslation();
  return (
    <section aria-label={t('coaching.practice.title')} className="section">
      <h2 className="section-title">{t('coaching.practice.title')}</h2>
      {report.practice.length ? (
        <Row gutter={[16, 16]}>
          {report.practice.map((item, i) => (
            <Col key={item.id} xs={24} lg={8}>
              <PracticeCard item={item} number={i + 1} rep={report.rep_speaker} />
            </Col>
          ))}
        </Row>
      ) : (
        <EmptyState>{t('coaching.practice.none')}</EmptyState>
      )}
    </section>
  );
}

function PracticeCard({ item, number, rep }: { item: PracticeFocus; number: number; rep: string }) {
  const { t } = useTranslation();
  return (
    <Card size="small" className="practice-card" title={<h3 className="card-heading">{t('coaching.practice.item', { number, title: item.title })}</h3>}>
      <Typography.Paragraph>{item.detail}</Typography.Paragraph>
      {item.scenario && <StatusTag tone="info">{t('coaching.practice.rolePlay')}</StatusTag>}
      <SegmentQuotes segments={item.segments.slice(0, 2)} rep={rep} />
    </Card>
  );
}

/** Product facts the rep stated, misstated ones first: the quote, what is right, and the chunk or field it rests on. */
export function FactList({ report }: { report: CoachingReport }) {
  const { t } = useTranslation();
  const facts = [...report.facts].sort((a, b) => Number(b.verdict === 'misstated') - Number(a.verdict === 'misstated'));
  return (
    <section aria-label={t('coaching.facts.title')} className="section">
      <h2 className="section-title">{t('coaching.facts.title')}</h2>
      {facts.length ? facts.map((fact) => <FactCard key={fact.id} fact={fact} rep={report.rep_speaker} />) : <EmptyState>{t(report.parts.structured_facts === 'no_product' ? 'coaching.facts.noProduct' : 'coaching.facts.none')}</EmptyState>}
    </section>
  );
}

function FactCard({ fact, rep }: { fact: FactCheck; rep: string }) {
  const { t } = useTranslation();
  const wrong = fact.verdict === 'misstated';
  return (
    <Card size="small" className="section finding" role="article" aria-label={t('coaching.facts.named', { label: fact.label })}>
      <Typography.Paragraph>
        <StatusTag tone={wrong ? 'danger' : 'success'}>{t(wrong ? 'coaching.facts.misstated' : 'coaching.facts.consistent')}</StatusTag> <Typography.Text strong>{fact.label}</Typography.Text>
        {' · '}
        {t('coaching.facts.stated', { stated: fact.stated })} {wrong && t('coaching.facts.correct', { correct: fact.correct })}
        {fact.occurrences > 1 && ` · ${t('coaching.facts.occurrences', { count: fact.occurrences })}`}
        {' · '}
        <Typography.Text type="secondary">{t(fact.method === 'deterministic' ? 'coaching.facts.byCode' : 'coaching.facts.byModel')}</Typography.Text>
      </Typography.Paragraph>
      <SegmentQuotes segments={fact.segments} rep={rep} />
      {fact.explanation && <Typography.Paragraph type="secondary">{fact.explanation}</Typography.Paragraph>}
      <Citations citations={fact.citations} />
    </Card>
  );
}

/** The customer's objections and how the rep answered each (found by the model). */
export function ObjectionList({ report }: { report: CoachingReport }) {
  const { t } = useTranslation();
  return (
    <section aria-label={t('coaching.objections.title')} className="section">
      <h2 className="section-title">{t('coaching.objections.title')}</h2>
      {report.objections.length ? (
        report.objections.map((objection) => <ObjectionCard key={objection.id} objection={objection} rep={report.rep_speaker} />)
      ) : (
        <EmptyState>{t(report.parts.objections === 'needs_model' ? 'coaching.objections.needsModel' : 'coaching.objections.none')}</EmptyState>
      )}
    </section>
  );
}

function ObjectionCard({ objection, rep }: { objection: Objection; rep: string }) {
  const { t } = useTranslation();
  return (
    <Card size="small" className="section finding" role="article" aria-label={objection.summary}>
      <Typography.Paragraph>
        <StatusTag tone={handlingTone[objection.handling]}>{t(handlingLabel[objection.handling])}</StatusTag> <Typography.Text strong>{objection.summary}</Typography.Text>
      </Typography.Paragraph>
      <SegmentQuotes segments={objection.customer} rep={rep} />
      {objection.rep_response.length > 0 && (
        <>
          <Typography.Text type="secondary">{t('coaching.objections.answer')}</Typography.Text>
          <SegmentQuotes segments={objection.rep_response} rep={rep} />
        </>
      )}
      {objection.assessment && <Typography.Paragraph>{t('coaching.objections.assessment', { text: objection.assessment })}</Typography.Paragraph>}
      {objection.better_answer && <Typography.Paragraph>{t('coaching.objections.better', { text: objection.better_answer })}</Typography.Paragraph>}
      <Citations citations={objection.citations} />
    </Card>
  );
}
