import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Card, Table, Typography, type TableColumnsType } from 'antd';
import { PageHeader } from '../../components/PageHeader';
import { StatusTag, type Tone } from '../../components/StatusTag';
import { EmptyState, ErrorNotice } from '../../components/states';
import { DataTable } from '../../components/list/DataTable';
import { useListParams } from '../../components/list/useListParams';
import { humanize, useFormat } from '../../i18n/format';
import type { KnowledgeScanResult, KnowledgeScanStatus, KnowledgeSource } from '../../api/types';
import { ReviewActions } from '../review/ReviewActions';
import { StatusFilter } from '../review/StatusFilter';
import { ReviewStatusCell } from '../review/ReviewStatusCell';
import { reviewLabel, type ReviewStatus } from '../review/status';
import { knowledgeQueries } from './queries';
import { useAuditKnowledge, useScanKnowledge } from './mutations';

export default function KnowledgeReviewPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const { page, filters, setPage, setFilters } = useListParams({ status: 'pending' });
  const status = filters.status as ReviewStatus;
  const sources = useQuery(knowledgeQueries.audit(status, page));
  // Kept here, not in the row: an approved source leaves the pending list as soon as it reloads.
  const [approved, setApproved] = useState<string | null>(null);
  const loaded = (s: { products: number; questions: number; chunks: number }) =>
    t('knowledge.loaded', { products: t('knowledge.products', { count: s.products }), questions: t('knowledge.questions', { count: s.questions }), chunks: t('knowledge.chunks', { count: s.chunks }) });

  const columns: TableColumnsType<KnowledgeSource> = [
    {
      title: t('knowledge.columns.source'),
      key: 'source',
      render: (_, s) => (
        <>
          <Typography.Text strong>{s.title}</Typography.Text>
          <div>
            <Typography.Text type="secondary">
              {s.file_path} · {humanize(s.domain)}
            </Typography.Text>
          </div>
        </>
      ),
    },
    { title: t('knowledge.columns.scanned'), dataIndex: 'scanned_at', render: (iso: string) => format.dateTime(iso) },
    {
      title: t('knowledge.columns.status'),
      key: 'status',
      render: (_, s) => <ReviewStatusCell status={s.status} rejectReason={s.reject_reason} />,
    },
    { title: t('knowledge.columns.loaded'), key: 'loaded', render: (_, s) => (s.status === 'approved' ? loaded(s) : t('common.state.none')) },
    {
      title: <span className="visually-hidden">{t('media.review.columns.actions')}</span>,
      key: 'actions',
      render: (_, s) => s.status === 'pending' && <SourceActions source={s} onApproved={(result) => setApproved(t('knowledge.approved', { title: s.title, loaded: loaded(result) }))} />,
    },
  ];

  return (
    <>
      <PageHeader title={t('knowledge.title')} subtitle={t('knowledge.subtitle')} />
      <Scan />
      <h2 className="section-title">{t('knowledge.sources')}</h2>
      {approved && <Alert className="section" type="success" showIcon role="status" title={approved} />}
      <StatusFilter value={status} onChange={(next) => setFilters({ status: next })} />
      <DataTable
        label={t('knowledge.tableLabel')}
        query={sources}
        columns={columns}
        rowKey={(s) => s.id}
        onPage={setPage}
        empty={status === 'all' ? t('knowledge.empty') : t('knowledge.emptyStatus', { status: t(reviewLabel[status]) })}
      />
    </>
  );
}

function SourceActions({ source, onApproved }: { source: KnowledgeSource; onApproved(result: { products: number; questions: number; chunks: number }): void }) {
  const audit = useAuditKnowledge();
  return (
    <ReviewActions
      name={source.title}
      busy={audit.isPending}
      error={audit.error}
      onApprove={() => audit.mutate({ id: source.id, reason: null }, { onSuccess: (result) => result.status === 'approved' && onApproved(result) })}
      onReject={(reason) => audit.mutate({ id: source.id, reason })}
    />
  );
}

const scanTone: Record<KnowledgeScanStatus, Tone> = { created: 'info', updated: 'warning', unchanged: 'neutral', missing: 'danger', skipped: 'danger' };

function Scan() {
  const { t } = useTranslation();
  const scan = useScanKnowledge();
  const columns: TableColumnsType<KnowledgeScanResult> = [
    { title: t('knowledge.scan.file'), dataIndex: 'file_path' },
    { title: t('knowledge.scan.sourceTitle'), dataIndex: 'title' },
    {
      title: t('knowledge.scan.result'),
      key: 'result',
      render: (_, r) => (
        <>
          <StatusTag tone={scanTone[r.status]}>{t(`knowledge.scan.status.${r.status}`)}</StatusTag>
          {r.reason && (
            <div>
              <Typography.Text type="secondary">{r.reason}</Typography.Text>
            </div>
          )}
        </>
      ),
    },
  ];
  return (
    <section aria-label={t('knowledge.scan.title')} className="section">
      <Card
        title={<h2 className="card-heading">{t('knowledge.scan.title')}</h2>}
        extra={
          <Button type="primary" loading={scan.isPending} onClick={() => scan.mutate()}>
            {scan.isPending ? t('knowledge.scan.scanning') : t('knowledge.scan.start')}
          </Button>
        }
      >
        {scan.error && <ErrorNotice error={scan.error} />}
        {scan.data &&
          (scan.data.results.length ? (
            <Table<KnowledgeScanResult> aria-label={t('knowledge.scan.results')} size="small" columns={columns} dataSource={scan.data.results} rowKey="file_path" pagination={{ hideOnSinglePage: true, pageSize: 20 }} />
          ) : (
            <EmptyState>{t('knowledge.scan.noFiles')}</EmptyState>
          ))}
        {!scan.data && !scan.error && <Typography.Text type="secondary">{t('knowledge.scan.hint')}</Typography.Text>}
      </Card>
    </section>
  );
}
