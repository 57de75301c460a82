import { useState } from 'react';
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Progress, Space, Typography, type TableColumnsType } from 'antd';
import { AdminListHeader } from '../../components/admin/AdminList';
import { ConfirmMutation } from '../../components/ConfirmButton';
import { QueryView } from '../../components/states';
import { Table } from 'antd';
import { EmptyState } from '../../components/states';
import { useFormat } from '../../i18n/format';
import type { Assignment } from '../../api/types';
import { assignmentQueries, useDeleteAssignment } from './queries';
import { CreateAssignmentDialog } from './CreateAssignmentDialog';
import { DueDate } from './DueDate';
import { ITEM_TYPE_LABEL } from './status';

/** 学习任务 (admin): every assignment with its progress; a new one is made here. */
export default function AssignmentsPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const list = useQuery(assignmentQueries.list());
  const [creating, setCreating] = useState(false);
  const columns: TableColumnsType<Assignment> = [
    { title: t('assignments.columns.title'), key: 'title', render: (_, a) => <Link to={`/admin/assignments/${a.id}`}>{a.title}</Link> },
    { title: t('assignments.columns.item'), key: 'item', render: (_, a) => `${t(ITEM_TYPE_LABEL[a.item.type])} · ${a.item.name}` },
    { title: t('assignments.columns.due'), key: 'due', render: (_, a) => <DueDate due={a.due_at} overdue={a.overdue > 0} /> },
    {
      title: t('assignments.columns.progress'),
      key: 'progress',
      width: 260,
      render: (_, a) => (
        <Space direction="vertical" size={0} className="full-width">
          <Progress percent={a.assigned ? Math.round((a.completed / a.assigned) * 100) : 0} size="small" status={a.overdue ? 'exception' : undefined} aria-label={t('assignments.progressOf', { title: a.title })} />
          <Typography.Text type="secondary">
            {t('assignments.counts', { completed: format.number(a.completed), assigned: format.number(a.assigned) })}
            {a.overdue > 0 && ` · ${t('assignments.overdueCount', { count: a.overdue })}`}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: <span className="visually-hidden">{t('assignments.actions')}</span>,
      key: 'actions',
      render: (_, a) => <DeleteAssignment assignment={a} />,
    },
  ];
  return (
    <>
      <AdminListHeader title={t('assignments.title')} subtitle={t('assignments.subtitle')} newLabel={t('assignments.new')} onNew={() => setCreating(true)} />
      <QueryView query={list}>
        {(items) => (
          <Table<Assignment>
            aria-label={t('assignments.title')}
            columns={columns}
            dataSource={items}
            rowKey={(a) => a.id}
            pagination={{ pageSize: 20, hideOnSinglePage: true, showSizeChanger: false }}
            locale={{ emptyText: <EmptyState>{t('assignments.empty')}</EmptyState> }}
          />
        )}
      </QueryView>
      {creating && <CreateAssignmentDialog onClose={() => setCreating(false)} />}
    </>
  );
}

function DeleteAssignment({ assignment }: { assignment: Assignment }) {
  const { t } = useTranslation();
  const remove = useDeleteAssignment();
  return (
    <ConfirmMutation mutation={remove} variables={assignment.id} confirm={t('assignments.deleteConfirm', { title: assignment.title })} aria-label={t('assignments.deleteOf', { title: assignment.title })}>
      {t('assignments.delete')}
    </ConfirmMutation>
  );
}
