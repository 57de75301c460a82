import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TableColumnsType } from 'antd';
import type { CoachingReportSummary } from '../../api/types';
import { useUser } from '../../app/session';
import { PageHeader } from '../../components/PageHeader';
import { StatusTag } from '../../components/StatusTag';
import { DataTable } from '../../components/list/DataTable';
import { useListParams } from '../../components/list/useListParams';
import { useFormat } from '../../i18n/format';
import { modelStatusLabel, modelStatusTone } from './labels';
import { coachingQueries } from './queries';

/** Coaching reports: a rep's own calls; every rep's for admins. */
export default function ReportsPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const admin = useUser().role === 'admin';
  const { page, setPage } = useListParams({});
  const reports = useQuery(coachingQueries.reports(page));

  const columns: TableColumnsType<CoachingReportSummary> = [
    { title: t('coaching.reports.call'), key: 'call', render: (_, r) => <Link to={`/coaching/reports/${r.id}`}>{r.filename}</Link> },
    ...(admin ? [{ title: t('coaching.reports.rep'), key: 'rep', render: (_: unknown, r: CoachingReportSummary) => r.user.full_name || r.user.username }] : []),
    { title: t('coaching.reports.product'), key: 'product', render: (_, r) => r.product?.name ?? t('common.state.none') },
    { title: t('coaching.reports.misstated'), dataIndex: 'misstated_count' },
    { title: t('coaching.reports.objections'), dataIndex: 'objection_count' },
    ...(admin ? [{ title: t('coaching.reports.pendingDrafts'), dataIndex: 'pending_drafts' }] : []),
    { title: t('coaching.reports.model'), key: 'model', render: (_, r) => <StatusTag tone={modelStatusTone[r.model_status]}>{t(modelStatusLabel[r.model_status])}</StatusTag> },
    { title: t('coaching.reports.created'), dataIndex: 'created_at', render: (iso: string) => format.dateTime(iso) },
  ];

  return (
    <>
      <PageHeader title={t('coaching.reports.title')} subtitle={t(admin ? 'coaching.reports.subtitleAdmin' : 'coaching.reports.subtitle')} actions={<Link to="/calls">{t('coaching.reports.newCall')}</Link>} />
      <DataTable label={t('coaching.reports.title')} query={reports} columns={columns} rowKey={(r) => r.id} onPage={setPage} empty={t('coaching.reports.empty')} />
    </>
  );
}
