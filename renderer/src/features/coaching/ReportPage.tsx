import { Link, useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Typography } from 'antd';
import type { CoachingReport } from '../../api/types';
import { useUser } from '../../app/session';
import { NotFound } from '../../components/NotFound';
import { PageHeader } from '../../components/PageHeader';
import { StatusTag } from '../../components/StatusTag';
import { QueryView } from '../../components/states';
import { useIdParam } from '../../components/useIdParam';
import { useFormat } from '../../i18n/format';
import { describeStoredError } from '../../i18n/errors';
import { CallPlayer } from './CallPlayer';
import { Figures } from './Figures';
import { FactList, ObjectionList, PracticeCards } from './Findings';
import { ReviewList } from './ReviewList';
import { modelStatusLabel, modelStatusTone, partLabel } from './labels';
import { coachingQueries } from './queries';
import InspectionPanel from '../compliance/InspectionPanel';

export default function ReportPage() {
  const id = useIdParam();
  return id === null ? <NotFound /> : <Report id={id} />;
}

function Report({ id }: { id: number }) {
  const { t } = useTranslation();
  const format = useFormat();
  const navigate = useNavigate();
  const report = useQuery(coachingQueries.report(id));
  const data = report.data;
  return (
    <>
      <PageHeader
        title={t('coaching.report.title', { name: data?.filename ?? '' })}
        subtitle={data && t('coaching.report.subtitle', { rep: data.user.full_name || data.user.username, date: format.dateTime(data.created_at), product: data.product?.name ?? t('coaching.report.noProduct') })}
        back={{ to: '/coaching', label: t('coaching.reports.title') }}
        actions={
          data?.scenario && (
            <Button type="primary" onClick={() => void navigate(`/coach?report=${id}&start=1`)}>
              {t('coaching.report.rolePlay')}
            </Button>
          )
        }
      />
      <QueryView query={report}>
        {(r) => (
          <CallPlayer recording={r.recording}>
            <ModelNotice report={r} />
            <Figures figures={r.figures} rep={r.rep_speaker} />
            <PracticeCards report={r} />
            <FactList report={r} />
            <ObjectionList report={r} />
            <ReviewList report={r} />
            <Drafts report={r} />
          </CallPlayer>
        )}
      </QueryView>
      {data && <InspectionPanel transcriptionId={data.transcription_id} repSpeaker={data.rep_speaker} productId={data.product?.id ?? null} />}
    </>
  );
}

/** Which parts of the report needed a chat model and did not get one, plainly. */
function ModelNotice({ report }: { report: CoachingReport }) {
  const { t } = useTranslation();
  const parts = report.needs_model.map((part) => t(partLabel[part])).join(t('coaching.parts.separator'));
  // The server stores its English words with the run: the reader gets the code's translation.
  const problem = report.model.error && describeStoredError(report.model.error, t);
  return (
    <>
      <Typography.Paragraph>
        {t('coaching.model.label')} <StatusTag tone={modelStatusTone[report.model.status]}>{t(modelStatusLabel[report.model.status])}</StatusTag>
        {report.model.route && <Typography.Text type="secondary">{t('coaching.model.route', { name: report.model.route.name, model: report.model.route.model })}</Typography.Text>}
      </Typography.Paragraph>
      {report.needs_model.length > 0 && <Alert className="section" type="warning" showIcon title={t('coaching.model.needed', { parts })} description={problem && [problem.message, problem.detail].filter(Boolean).join(' ')} />}
      {report.model.transcript_truncated && <Alert className="section" type="info" showIcon title={t('coaching.model.truncated')} />}
    </>
  );
}

/** Admins: the draft questions this call produced wait in the review queue. */
function Drafts({ report }: { report: CoachingReport }) {
  const { t } = useTranslation();
  const user = useUser();
  if (user.role !== 'admin' || !report.question_drafts.length) return null;
  return (
    <Alert
      className="section"
      type="info"
      showIcon
      title={t('coaching.report.drafts', { count: report.question_drafts.length, pending: report.pending_drafts })}
      action={<Link to="/coaching/question-drafts">{t('coaching.report.openDrafts')}</Link>}
    />
  );
}
