import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Popconfirm, Space, Typography, type TableColumnsType } from 'antd';
import { AdminListHeader, FilterBar } from '../../components/admin/AdminList';
import { StatusTag } from '../../components/StatusTag';
import { ErrorNotice } from '../../components/states';
import { DataTable } from '../../components/list/DataTable';
import { useListParams } from '../../components/list/useListParams';
import { ActiveToggle } from '../../components/admin/ActiveToggle';
import { ChoiceFilter, StatusFilter } from '../../components/admin/ChoiceFilter';
import { useFormat } from '../../i18n/format';
import type { ExamPaperAdmin } from '../../api/types';
import { paperType } from '../exams/standing';
import { bankQueries, type PaperFilter } from './queries';
import { useSetPaperStatus } from './mutations';
import { PaperDialog } from './PaperDialog';

type Dialog = { kind: 'new' } | { kind: 'edit'; paper: ExamPaperAdmin } | null;

/** Exam papers: built on a domain of the bank, offered or withdrawn; a formal one is published to every employee. */
export default function PapersPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const { page, filters, setPage, setFilters } = useListParams({ q: '', type: '' as PaperFilter['type'], status: '' as PaperFilter['status'] });
  const papers = useQuery(bankQueries.papers({ ...filters, page }));
  const [dialog, setDialog] = useState<Dialog>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const columns: TableColumnsType<ExamPaperAdmin> = [
    {
      title: t('bank.papers.name'),
      key: 'name',
      render: (_, p) => (
        <>
          <Typography.Text strong>{p.name}</Typography.Text>
          <div className="muted">{t(paperType[p.type])}</div>
        </>
      ),
    },
    { title: t('bank.papers.domain'), dataIndex: 'domain' },
    {
      title: t('bank.papers.questions'),
      key: 'questions',
      render: (_, p) => (
        <>
          {t('bank.papers.questionsOf', { count: p.question_count, available: p.available_questions })}
          {p.available_questions < p.question_count && <StatusTag tone="warning">{t('bank.papers.short')}</StatusTag>}
        </>
      ),
    },
    { title: t('bank.papers.passScore'), key: 'pass', render: (_, p) => `${p.pass_score} / ${p.total_score}` },
    { title: t('bank.papers.duration'), dataIndex: 'duration_minutes', render: (m: number) => format.minutes(m) },
    {
      title: t('content.status.label'),
      key: 'status',
      render: (_, p) =>
        p.status === 'active' ? (
          <StatusTag tone="success">{p.published_at && p.type === 'formal' ? t('bank.papers.publishedOn', { date: format.date(p.published_at) }) : t('bank.papers.status.active')}</StatusTag>
        ) : (
          <StatusTag>{t(p.published_at ? 'bank.papers.status.inactive' : 'bank.papers.status.draft')}</StatusTag>
        ),
    },
    { title: <span className="visually-hidden">{t('content.actions')}</span>, key: 'actions', render: (_, p) => <PaperActions paper={p} onEdit={() => setDialog({ kind: 'edit', paper: p })} onPublished={() => setNotice(t('bank.papers.published', { name: p.name }))} /> },
  ];
  return (
    <>
      <AdminListHeader title={t('bank.papers.title')} subtitle={t('bank.papers.subtitle')} newLabel={t('bank.papers.new')} onNew={() => setDialog({ kind: 'new' })} notice={notice} onCloseNotice={() => setNotice(null)} />
      <FilterBar label={t('bank.papers.search')} id="papers-q" q={filters.q} onSearch={(q) => setFilters({ q })}>
        <ChoiceFilter label={t('bank.papers.type')} value={filters.type} all="" onChange={(type) => setFilters({ type })} options={(['formal', 'self_test'] as const).map((v) => ({ value: v, label: t(paperType[v]) }))} />
        <StatusFilter value={filters.status} all="" onChange={(status) => setFilters({ status })} statuses={[['active', 'bank.papers.status.active'], ['inactive', 'bank.papers.status.inactive']]} />
      </FilterBar>
      <DataTable label={t('bank.papers.title')} query={papers} columns={columns} rowKey={(p) => p.id} onPage={setPage} empty={filters.q || filters.type || filters.status ? t('bank.papers.noMatch') : t('bank.papers.empty')} />
      {dialog && (
        <PaperDialog
          paper={dialog.kind === 'edit' ? dialog.paper : undefined}
          onClose={() => setDialog(null)}
          onSaved={(p) => {
            const publishedNow = p.type === 'formal' && p.status === 'active' && (dialog.kind === 'new' || !dialog.paper.published_at);
            setNotice(t(publishedNow ? 'bank.papers.published' : 'bank.papers.saved', { name: p.name }));
            setDialog(null);
          }}
        />
      )}
    </>
  );
}

function PaperActions({ paper, onEdit, onPublished }: { paper: ExamPaperAdmin; onEdit(): void; onPublished(): void }) {
  const { t } = useTranslation();
  const change = useSetPaperStatus();
  const firstPublish = paper.type === 'formal' && paper.status === 'inactive' && !paper.published_at;
  return (
    <Space wrap>
      <Button size="small" aria-label={`${t('content.edit')} ${paper.name}`} onClick={onEdit}>
        {t('content.edit')}
      </Button>
      {firstPublish ? (
        <>
          <Popconfirm title={t('bank.papers.publishConfirm', { name: paper.name })} okText={t('bank.papers.publish')} cancelText={t('common.action.cancel')} onConfirm={() => change.mutate({ id: paper.id, status: 'active' }, { onSuccess: onPublished })}>
            <Button size="small" type="primary" loading={change.isPending} aria-label={`${t('bank.papers.publish')} ${paper.name}`}>
              {t('bank.papers.publish')}
            </Button>
          </Popconfirm>
          {change.error && <ErrorNotice error={change.error} />}
        </>
      ) : (
        <ActiveToggle
          active={paper.status === 'active'}
          name={paper.name}
          confirm={t('bank.papers.withdrawConfirm', { name: paper.name })}
          offLabel={t('bank.papers.withdraw')}
          onLabel={t('bank.papers.offerAgain')}
          onSet={(active) => change.mutate({ id: paper.id, status: active ? 'active' : 'inactive' })}
          pending={change.isPending}
          error={change.error}
        />
      )}
    </Space>
  );
}
