import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Card, Flex, Progress, Typography, type TableColumnsType } from 'antd';
import { SimpleList } from '../../components/SimpleList';
import { PageHeader } from '../../components/PageHeader';
import { DataTable } from '../../components/list/DataTable';
import { useListParams } from '../../components/list/useListParams';
import { humanize, useFormat } from '../../i18n/format';
import type { MediaExtraction, MediaFile } from '../../api/types';
import { ReviewActions } from '../review/ReviewActions';
import { StatusFilter } from '../review/StatusFilter';
import { ReviewStatusCell } from '../review/ReviewStatusCell';
import { reviewLabel, type ReviewStatus } from '../review/status';
import { mediaQueries } from './queries';
import { useAuditMedia } from './mutations';
import { ReviewPreviewButton } from './ReviewPreview';

export default function MediaReviewPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const { page, filters, setPage, setFilters } = useListParams({ status: 'pending' });
  const status = filters.status as ReviewStatus;
  const media = useQuery(mediaQueries.audit(status, page));
  // Approved media leave the pending list on reload: follow their extraction here.
  const [approved, setApproved] = useState<MediaFile[]>([]);
  const onApproved = (done: MediaFile) => setApproved((list) => [done, ...list.filter((m) => m.id !== done.id)]);

  const columns: TableColumnsType<MediaFile> = [
    {
      title: t('media.review.columns.file'),
      key: 'file',
      render: (_, m) => (
        <>
          <Typography.Text strong>{m.filename}</Typography.Text>
          <div>
            <Typography.Text type="secondary">
              {[t(`media.kind.${m.kind}`), format.bytes(m.size), m.bind_type === 'none' ? t('media.review.notAttached') : t('media.review.attached', { to: t(`media.bindType.${m.bind_type}`), id: m.bind_id ?? '' })].join(' · ')}
            </Typography.Text>
          </div>
          {m.remark && <div>“{m.remark}”</div>}
        </>
      ),
    },
    {
      title: t('media.review.columns.uploader'),
      key: 'uploader',
      render: (_, m) => (
        <>
          {m.uploader_name || t('common.state.none')}
          <div>
            <Typography.Text type="secondary">{format.dateTime(m.created_at)}</Typography.Text>
          </div>
        </>
      ),
    },
    {
      title: t('media.review.columns.status'),
      key: 'status',
      render: (_, m) => <ReviewStatusCell status={m.status} rejectReason={m.reject_reason} />,
    },
    {
      title: t('media.review.columns.extraction'),
      key: 'extraction',
      render: (_, m) => (m.status === 'approved' ? <ExtractionStatus id={m.id} initial={m.extraction} /> : <Typography.Text type="secondary">{t('media.review.afterApproval')}</Typography.Text>),
    },
    {
      title: <span className="visually-hidden">{t('media.review.columns.actions')}</span>,
      key: 'actions',
      render: (_, m) => (
        <Flex gap="small" wrap align="flex-start">
          <ReviewPreviewButton media={m} />
          {m.status === 'pending' && <MediaActions media={m} onApproved={onApproved} />}
        </Flex>
      ),
    },
  ];

  return (
    <>
      <PageHeader title={t('media.review.title')} subtitle={t('media.review.subtitle')} />
      {approved.length > 0 && (
        <section aria-label={t('media.review.justApproved')} className="section">
          <Card size="small" title={<h2 className="card-heading">{t('media.review.justApproved')}</h2>}>
            <SimpleList
              items={approved}
              rowKey={(item) => item.id}
              render={(item) => (
                <Flex className="list-row" justify="space-between" gap="middle">
                  <Typography.Text strong>{item.filename}</Typography.Text>
                  <ExtractionStatus id={item.id} initial={item.extraction} />
                </Flex>
              )}
            />
          </Card>
        </section>
      )}
      <StatusFilter value={status} onChange={(next) => setFilters({ status: next })} />
      <DataTable
        label={t('media.review.tableLabel')}
        query={media}
        columns={columns}
        rowKey={(m) => m.id}
        onPage={setPage}
        empty={status === 'all' ? t('media.review.empty') : t('media.review.emptyStatus', { status: t(reviewLabel[status]) })}
      />
    </>
  );
}

function MediaActions({ media, onApproved }: { media: MediaFile; onApproved(media: MediaFile): void }) {
  const audit = useAuditMedia();
  return (
    <ReviewActions
      name={media.filename}
      busy={audit.isPending}
      error={audit.error}
      onApprove={() => audit.mutate({ id: media.id, reason: null }, { onSuccess: onApproved })}
      onReject={(reason) => audit.mutate({ id: media.id, reason })}
    />
  );
}

const working = (extraction: MediaExtraction) => extraction.state === 'queued' || extraction.state === 'running';

/** Follows the background extraction of an approved media until it is finished. */
function ExtractionStatus({ id, initial }: { id: number; initial: MediaExtraction }) {
  const { t } = useTranslation();
  const status = useQuery({ ...mediaQueries.status(id), enabled: working(initial) });
  const extraction = status.data?.extraction ?? initial;
  const text: Record<MediaExtraction['state'], string> = {
    not_started: t('media.extraction.not_started'),
    queued: t('media.extraction.queued'),
    running: t('media.extraction.running', { stage: humanize(extraction.stage), progress: extraction.progress }),
    done: t('media.extraction.done', { count: extraction.chunks }),
    failed: t('media.extraction.failed', { reason: extraction.error ?? t('media.extraction.unknown') }),
    skipped: t('media.extraction.skipped'),
  };
  return (
    <div className="extraction" data-testid="extraction-status" data-state={extraction.state}>
      <span>{text[extraction.state]}</span>
      {working(extraction) && <Progress size="small" percent={extraction.progress} aria-label={t('media.extraction.progress')} />}
    </div>
  );
}
