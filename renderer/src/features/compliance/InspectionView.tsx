import { useTranslation } from 'react-i18next';
import { Card, Collapse, Progress, Space, Typography } from 'antd';
import type { Evidence, Inspection, InspectionResult, SecondOpinion, SegmentRef } from '../../api/types';
import { StatusTag, type Tone } from '../../components/StatusTag';
import { CallPlayer } from '../coaching/CallPlayer';
import { SegmentQuotes } from '../coaching/Provenance';
import { useUser } from '../../app/session';

const outcomeTone: Record<InspectionResult['outcome'], Tone> = { pass: 'success', fail: 'danger', not_applicable: 'neutral' };
const severityTone: Record<InspectionResult['severity'], Tone> = { critical: 'danger', major: 'warning', minor: 'neutral' };

const asSegments = (evidence: Evidence[]): SegmentRef[] => evidence.map((e) => ({ index: e.segment_index, start: e.start, end: e.end, speaker: e.speaker, quote: e.quote, audio_url: e.audio_url }));

/** The rule's name in the reader's language. */
function useRuleName() {
  const { i18n } = useTranslation();
  return (r: InspectionResult) => (i18n.language === 'en' ? r.name.en : r.name['zh-CN']) || r.rule_key;
}

function ResultCard({ result, rep }: { result: InspectionResult; rep: string }) {
  const { t } = useTranslation();
  const name = useRuleName();
  return (
    <Card size="small" className="compliance-rule" data-rule={result.rule_key} title={<h4 className="card-heading">{name(result)}</h4>} extra={<Space size={4}><StatusTag tone={severityTone[result.severity]}>{t(`compliance.severity.${result.severity}`)}</StatusTag><StatusTag tone={outcomeTone[result.outcome]}>{t(`compliance.outcome.${result.outcome}`)}</StatusTag></Space>}>
      <Typography.Paragraph type="secondary">{t(`compliance.kind.${result.kind}`)}</Typography.Paragraph>
      {result.evidence.length ? <SegmentQuotes segments={asSegments(result.evidence)} rep={rep} /> : <Typography.Paragraph>{t('compliance.panel.noEvidence')}</Typography.Paragraph>}
    </Card>
  );
}

/** The model's review, apart from the rule check: each finding beside the rule check's verdict, which it never changes. */
function SecondOpinionSection({ opinion, results, rep }: { opinion: SecondOpinion; results: InspectionResult[]; rep: string }) {
  const { t } = useTranslation();
  const name = useRuleName();
  return (
    <section className="compliance-second-opinion section" data-status={opinion.status}>
      <h3 className="section-title">{t('compliance.secondOpinion.title')}</h3>
      {opinion.status !== 'complete' ? (
        <Typography.Paragraph type="secondary">{t(`compliance.secondOpinion.status.${opinion.status}`)}</Typography.Paragraph>
      ) : (
        <>
          <Typography.Paragraph type="secondary">{t('compliance.secondOpinion.note')}</Typography.Paragraph>
          {!opinion.findings.length && <Typography.Paragraph>{t('compliance.secondOpinion.none')}</Typography.Paragraph>}
          {opinion.findings.map((f) => {
            const checked = results.find((r) => r.rule_key === f.rule_key);
            return (
              <Card
                key={f.rule_key}
                size="small"
                className="compliance-opinion"
                data-rule={f.rule_key}
                title={<h4 className="card-heading">{checked ? name(checked) : f.rule_key}</h4>}
                extra={
                  <Space size={4}>
                    {checked && <StatusTag tone="neutral">{t(checked.outcome === f.outcome ? 'compliance.secondOpinion.agrees' : 'compliance.secondOpinion.differs')}</StatusTag>}
                    <StatusTag tone={outcomeTone[f.outcome]}>{t(`compliance.outcome.${f.outcome}`)}</StatusTag>
                  </Space>
                }
              >
                {f.reason && <Typography.Paragraph>{f.reason}</Typography.Paragraph>}
                <SegmentQuotes segments={asSegments(f.evidence)} rep={rep} />
              </Card>
            );
          })}
        </>
      )}
    </section>
  );
}

/** An inspection: score, what failed (each with its quote and a play button), then what passed and what did not apply. */
export function InspectionView({ inspection }: { inspection: Inspection }) {
  const { t } = useTranslation();
  const name = useRuleName();
  const user = useUser();
  const failed = inspection.results.filter((r) => r.outcome === 'fail');
  const passed = inspection.results.filter((r) => r.outcome === 'pass');
  const notApplicable = inspection.results.filter((r) => r.outcome === 'not_applicable');
  const firstAudio = inspection.results.flatMap((r) => r.evidence).find((e) => e.audio_url)?.audio_url ?? null;
  const reason = inspection.recording?.reason ?? 'not_kept';
  const recording = firstAudio ? { available: true, url: firstAudio.split('#')[0]!, expires_at: null, reason: null } : { available: false, url: null, expires_at: null, reason };
  const ownCall = inspection.user.id === user.id;
  return (
    <div className="compliance-inspection">
      <Space size="large" align="center" wrap className="section">
        <Progress type="circle" size={72} percent={inspection.score} status={inspection.outcome === 'pass' ? 'success' : 'exception'} format={(p) => `${p ?? 0}`} aria-label={t('compliance.panel.score')} />
        <div>
          <StatusTag tone={inspection.outcome === 'pass' ? 'success' : 'danger'}>{t(`compliance.overall.${inspection.outcome}`)}</StatusTag>
          <Typography.Paragraph className="compliance-meta">
            {inspection.product ? t('compliance.panel.product', { name: inspection.product.name, level: inspection.product.risk_level || t('compliance.product.notSet') }) : t('compliance.panel.noProduct')}
            {' · '}
            {inspection.customer_risk ? t('compliance.panel.customerRisk', { type: inspection.customer_risk }) : t('compliance.panel.customerUnknown')}
          </Typography.Paragraph>
          <Typography.Text type="secondary">
            {t('compliance.panel.meta', { name: inspection.rule_set_name || t('compliance.panel.ruleSetNumber', { id: inspection.rule_set_id }), version: inspection.rule_set_version, revision: inspection.revision, trigger: t(`compliance.trigger.${inspection.trigger}`) })}
          </Typography.Text>
        </div>
      </Space>
      <CallPlayer recording={recording}>
        <h3 className="section-title">{t('compliance.panel.failed')}</h3>
        {failed.length ? failed.map((r) => <ResultCard key={r.rule_key} result={r} rep={inspection.rep_speaker} />) : <Typography.Paragraph>{t('compliance.panel.allPassed')}</Typography.Paragraph>}
        {inspection.critical_failures > 0 && <Typography.Paragraph type="secondary">{t(ownCall ? 'compliance.panel.practice' : 'compliance.panel.practiceOfRep', { name: inspection.user.full_name || inspection.user.username })}</Typography.Paragraph>}
        <Collapse
          ghost
          items={[
            ...(passed.length ? [{ key: 'passed', label: `${t('compliance.panel.passed')}（${passed.length}）`, children: passed.map((r) => <ResultCard key={r.rule_key} result={r} rep={inspection.rep_speaker} />) }] : []),
            ...(notApplicable.length ? [{ key: 'na', label: `${t('compliance.panel.notApplicable')}（${notApplicable.length}）`, children: <ul>{notApplicable.map((r) => <li key={r.rule_key}>{name(r)}</li>)}</ul> }] : []),
          ]}
        />
        <SecondOpinionSection opinion={inspection.second_opinion} results={inspection.results} rep={inspection.rep_speaker} />
      </CallPlayer>
    </div>
  );
}
