import { useState } from 'react';
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Alert, Typography, type TableColumnsType } from 'antd';
import type { QuestionDraft } from '../../api/types';
import { PageHeader } from '../../components/PageHeader';
import { StatusTag } from '../../components/StatusTag';
import { DataTable } from '../../components/list/DataTable';
import { useListParams } from '../../components/list/useListParams';
import { questionTypeLabel } from '../bank/labels';
import { ReviewActions } from '../review/ReviewActions';
import { ReviewStatusCell } from '../review/ReviewStatusCell';
import { StatusFilter } from '../review/StatusFilter';
import { reviewLabel, type ReviewStatus } from '../review/status';
import { useAuditDraft } from './mutations';
import { Citations, SegmentQuotes } from './Provenance';
import { coachingQueries } from './queries';

/** The review queue of draft questions built from misstated facts: they enter the bank only when approved. */
export default function DraftsPage() {
  const { t } = useTranslation();
  const { page, filters, setPage, setFilters } = useListParams({ status: 'pending' });
  const status = filters.status as ReviewStatus;
  const drafts = useQuery(coachingQueries.drafts(status, page));
  const [approved, setApproved] = useState<string | null>(null);

  const columns: TableColumnsType<QuestionDraft> = [
    { title: t('coaching.drafts.columns.question'), key: 'question', render: (_, d) => <DraftQuestion draft={d} /> },
    {
      title: t('coaching.drafts.columns.source'),
      key: 'source',
      width: '34%',
      render: (_, d) => (
        <>
          <Typography.Paragraph>
            <Link to={`/coaching/reports/${d.report_id}`}>{t('coaching.drafts.fromReport', { rep: d.user.full_name || d.user.username })}</Link>
          </Typography.Paragraph>
          <SegmentQuotes segments={d.segments.slice(0, 1)} rep={d.segments[0]?.speaker ?? ''} />
          <Citations citations={d.citations} />
        </>
      ),
    },
    {
      title: t('coaching.drafts.columns.status'),
      key: 'status',
      render: (_, d) => (
        <>
          <ReviewStatusCell status={d.status} rejectReason={d.reject_reason} />
          {d.question_id !== null && <Typography.Text type="secondary">{t('coaching.drafts.inBank', { id: d.question_id })}</Typography.Text>}
        </>
      ),
    },
    {
      title: <span className="visually-hidden">{t('media.review.columns.actions')}</span>,
      key: 'actions',
      render: (_, d) => d.status === 'pending' && <DraftActions draft={d} onApproved={(id) => setApproved(t('coaching.drafts.approved', { stem: d.stem, id }))} />,
    },
  ];

  return (
    <div className="top-aligned">
      <PageHeader title={t('coaching.drafts.title')} subtitle={t('coaching.drafts.subtitle')} />
      {approved && <Alert className="section" type="success" showIcon role="status" title={approved} />}
      <StatusFilter value={status} onChange={(next) => setFilters({ status: next })} />
      <DataTable
        label={t('coaching.drafts.tableLabel')}
        query={drafts}
        columns={columns}
        rowKey={(d) => d.id}
        onPage={setPage}
        empty={status === 'all' ? t('coaching.drafts.empty') : t('coaching.drafts.emptyStatus', { status: t(reviewLabel[status]) })}
      />
    </div>
  );
}

function DraftQuestion({ draft }: { draft: QuestionDraft }) {
  const { t } = useTranslation();
  return (
    <>
      <Typography.Paragraph>
        <StatusTag tone="info">{t(questionTypeLabel[draft.type])}</StatusTag> <Typography.Text strong>{draft.stem}</Typography.Text>
      </Typography.Paragraph>
      <ul className="draft-options" aria-label={t('coaching.drafts.options')}>
        {draft.options.map((o) => (
          <li key={o.key} className={draft.answer.includes(o.key) ? 'answer-correct' : undefined}>
            {o.key}. {o.text}
            {draft.answer.includes(o.key) && ` ${t('coaching.drafts.correct')}`}
          </li>
        ))}
      </ul>
      <Typography.Paragraph type="secondary">{draft.explanation}</Typography.Paragraph>
    </>
  );
}

function DraftActions({ draft, onApproved }: { draft: QuestionDraft; onApproved(questionId: number): void }) {
  const audit = useAuditDraft();
  return (
    <ReviewActions
      name={draft.stem}
      busy={audit.isPending}
      error={audit.error}
      onApprove={() => audit.mutate({ id: draft.id, reason: null }, { onSuccess: (result) => result.question && onApproved(result.question.id) })}
      onReject={(reason) => audit.mutate({ id: draft.id, reason })}
    />
  );
}
