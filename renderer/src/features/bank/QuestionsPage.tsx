import { useState } from 'react';
import { ImportOutlined } from '@ant-design/icons';
import { BulkImportDialog } from '../imports/BulkImportDialog';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Form, Space, Typography, type TableColumnsType } from 'antd';
import { AdminListHeader, FilterBar } from '../../components/admin/AdminList';
import { StatusTag } from '../../components/StatusTag';
import { DataTable } from '../../components/list/DataTable';
import { useListParams } from '../../components/list/useListParams';
import { ActiveToggle } from '../../components/admin/ActiveToggle';
import { ChoiceFilter, StatusFilter } from '../../components/admin/ChoiceFilter';
import type { Question } from '../../api/types';
import { describeAnswer } from '../exams/standing';
import { bankKeys, bankQueries, type QuestionFilter } from './queries';
import { useSetQuestionStatus } from './mutations';
import { QuestionDialog } from './QuestionDialog';
import { QuestionPreview } from './QuestionPreview';
import { DomainSelect } from './DomainSelect';
import { questionTypeLabel, questionTypes } from './labels';

type Dialog = { kind: 'new' } | { kind: 'edit' | 'preview'; question: Question } | null;

/** The question bank: every question by domain, type and status, server-paged; create, edit, disable, preview. */
export default function QuestionsPage() {
  const { t } = useTranslation();
  const { page, filters, setPage, setFilters } = useListParams({ q: '', domain: '', type: '' as QuestionFilter['type'], status: 'all' as QuestionFilter['status'] });
  const questions = useQuery(bankQueries.questions({ ...filters, page }));
  const [dialog, setDialog] = useState<Dialog>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [importing, setImporting] = useState(false);
  const columns: TableColumnsType<Question> = [
    { title: t('bank.questions.stem'), dataIndex: 'stem', render: (stem: string) => <Typography.Paragraph ellipsis={{ rows: 2 }} className="table-text">{stem}</Typography.Paragraph> },
    { title: t('bank.questions.domain'), dataIndex: 'domain' },
    { title: t('bank.questions.type'), dataIndex: 'type', render: (type: Question['type']) => t(questionTypeLabel[type]) },
    { title: t('bank.questions.answer'), key: 'answer', render: (_, q) => describeAnswer(q.type, q.options, q.type === 'multiple' ? q.answer : (q.answer[0] ?? null), t) },
    { title: t('content.status.label'), dataIndex: 'status', render: (s: Question['status']) => <StatusTag tone={s === 'active' ? 'success' : 'neutral'}>{t(`bank.questions.status.${s}`)}</StatusTag> },
    { title: <span className="visually-hidden">{t('content.actions')}</span>, key: 'actions', render: (_, q) => <QuestionActions question={q} onOpen={(kind) => setDialog({ kind, question: q })} /> },
  ];
  const filtered = filters.q || filters.domain || filters.type || filters.status !== 'all';
  return (
    <>
      <AdminListHeader
        title={t('bank.questions.title')}
        subtitle={t('bank.questions.subtitle')}
        newLabel={t('bank.questions.new')}
        onNew={() => setDialog({ kind: 'new' })}
        extra={
          <Button icon={<ImportOutlined aria-hidden />} onClick={() => setImporting(true)}>
            {t('integrity.imports.questions.title')}
          </Button>
        }
        notice={notice}
        onCloseNotice={() => setNotice(null)}
      />
      {importing && <BulkImportDialog kind="questions" invalidates={bankKeys.all} onClose={() => setImporting(false)} />}
      <FilterBar label={t('bank.questions.search')} id="questions-q" q={filters.q} onSearch={(q) => setFilters({ q })}>
        <Form.Item label={t('bank.questions.domain')} htmlFor="questions-domain">
          <DomainSelect id="questions-domain" value={filters.domain} onChange={(domain) => setFilters({ domain })} allLabel={t('common.filter.all')} />
        </Form.Item>
        <ChoiceFilter label={t('bank.questions.type')} value={filters.type} all="" onChange={(type) => setFilters({ type })} options={questionTypes.map((q) => ({ value: q, label: t(questionTypeLabel[q]) }))} />
        <StatusFilter value={filters.status} all="all" onChange={(status) => setFilters({ status })} statuses={[['active', 'bank.questions.status.active'], ['disabled', 'bank.questions.status.disabled']]} />
      </FilterBar>
      <DataTable label={t('bank.questions.title')} query={questions} columns={columns} rowKey={(q) => q.id} onPage={setPage} empty={filtered ? t('bank.questions.noMatch') : t('bank.questions.empty')} />
      {(dialog?.kind === 'new' || dialog?.kind === 'edit') && (
        <QuestionDialog
          question={dialog.kind === 'edit' ? dialog.question : undefined}
          domain={filters.domain}
          onClose={() => setDialog(null)}
          onSaved={() => {
            setNotice(t(dialog.kind === 'edit' ? 'bank.questions.saved' : 'bank.questions.created'));
            setDialog(null);
          }}
        />
      )}
      {dialog?.kind === 'preview' && <QuestionPreview question={dialog.question} onClose={() => setDialog(null)} />}
    </>
  );
}

function QuestionActions({ question, onOpen }: { question: Question; onOpen(kind: 'edit' | 'preview'): void }) {
  const { t } = useTranslation();
  const change = useSetQuestionStatus();
  const name = question.stem.slice(0, 40);
  return (
    <Space wrap>
      <Button size="small" aria-label={`${t('bank.preview.open')} ${name}`} onClick={() => onOpen('preview')}>
        {t('bank.preview.open')}
      </Button>
      <Button size="small" aria-label={`${t('content.edit')} ${name}`} onClick={() => onOpen('edit')}>
        {t('content.edit')}
      </Button>
      <ActiveToggle
        active={question.status === 'active'}
        name={name}
        confirm={t('bank.questions.disableConfirm')}
        offLabel={t('bank.questions.disable')}
        onLabel={t('bank.questions.enable')}
        onSet={(active) => change.mutate({ id: question.id, status: active ? 'active' : 'disabled' })}
        pending={change.isPending}
        error={change.error}
      />
    </Space>
  );
}
