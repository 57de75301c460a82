import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Card, Col, Form, Input, Progress, Radio, Row, Statistic, Table, type TableColumnsType } from 'antd';
import { BellOutlined, DownloadOutlined, EditOutlined } from '@ant-design/icons';
import { PageHeader } from '../../components/PageHeader';
import { ConfirmMutation } from '../../components/ConfirmButton';
import { EmptyState, ErrorNotice, QueryView } from '../../components/states';
import { StatusTag } from '../../components/StatusTag';
import { useListParams } from '../../components/list/useListParams';
import { useIdParam } from '../../components/useIdParam';
import { NotFound } from '../../components/NotFound';
import { useFormat } from '../../i18n/format';
import { DepartmentSelect } from '../exam-stats/DepartmentSelect';
import type { AssignmentPerson } from '../../api/types';
import { assignmentQueries, useExportProgress, useRemind } from './queries';
import { DueDate } from './DueDate';
import { EditAssignmentDialog } from './EditAssignmentDialog';
import { ITEM_TYPE_LABEL, STATUS_LABEL, STATUS_TONE } from './status';


/** One assignment: who is done, who is not (filters), a reminder to those not done, the Excel export. */
export default function AssignmentProgressPage() {
  const id = useIdParam();
  return id === null ? <NotFound /> : <AssignmentProgress id={id} />;
}

function AssignmentProgress({ id }: { id: number }) {
  const { t, i18n } = useTranslation();
  const format = useFormat();
  const { page, filters, setPage, setFilters } = useListParams({ status: '', department: '', q: '' });
  const assignment = useQuery(assignmentQueries.detail(id));
  const progress = useQuery(assignmentQueries.progress(id, { ...filters, page }));
  const remind = useRemind();
  const exporting = useExportProgress();
  const [editing, setEditing] = useState(false);
  const columns: TableColumnsType<AssignmentPerson> = [
    { title: t('assignments.people.name'), key: 'name', render: (_, p) => p.full_name || p.username },
    { title: t('assignments.people.username'), dataIndex: 'username' },
    { title: t('assignments.people.department'), dataIndex: 'department', render: (d: string) => d || t('common.state.none') },
    { title: t('assignments.people.status'), key: 'status', render: (_, p) => <StatusTag tone={STATUS_TONE[p.status]}>{t(STATUS_LABEL[p.status])}</StatusTag> },
    { title: t('assignments.people.doneAt'), key: 'done', render: (_, p) => (p.done_at ? format.dateTime(p.done_at) : '—') },
    ...(assignment.data?.item.type === 'exam'
      ? ([
          { title: t('assignments.people.bestScore'), key: 'best', render: (_, p) => (p.best_score === null ? '—' : format.number(p.best_score)) },
          { title: t('assignments.people.attempts'), key: 'attempts', render: (_, p) => p.attempts ?? 0 },
        ] satisfies TableColumnsType<AssignmentPerson>)
      : []),
  ];
  return (
    <QueryView query={assignment}>
      {(a) => (
        <>
          <PageHeader
            back={{ to: '/admin/assignments', label: t('assignments.back') }}
            title={a.title}
            subtitle={`${t(ITEM_TYPE_LABEL[a.item.type])} · ${a.item.name}`}
            actions={
              <>
                <Button icon={<EditOutlined aria-hidden />} onClick={() => setEditing(true)}>
                  {t('assignments.edit.open')}
                </Button>
                <ConfirmMutation mutation={remind} variables={a.id} danger={false} size="middle" confirm={t('assignments.remindConfirm', { count: a.assigned - a.completed })} icon={<BellOutlined aria-hidden />}>
                  {t('assignments.remind')}
                </ConfirmMutation>
                <Button
                  icon={<DownloadOutlined aria-hidden />}
                  loading={exporting.isPending}
                  onClick={() => exporting.mutate({ id: a.id, filter: { status: filters.status, department: filters.department, q: filters.q }, lang: i18n.language })}
                >
                  {t('assignments.export')}
                </Button>
              </>
            }
          />
          {editing && <EditAssignmentDialog assignment={a} onClose={() => setEditing(false)} />}
          {remind.data && <Alert className="section" type="success" showIcon title={t('assignments.reminded', { count: remind.data.reminded })} />}
          {exporting.error && <ErrorNotice error={exporting.error} />}
          <Row gutter={[16, 16]} className="section">
            <Col xs={12} md={6}>
              <Card>
                <Statistic title={t('assignments.stats.assigned')} value={a.assigned} />
              </Card>
            </Col>
            <Col xs={12} md={6}>
              <Card>
                <Statistic title={t('assignments.stats.completed')} value={a.completed} />
              </Card>
            </Col>
            <Col xs={12} md={6}>
              <Card>
                <Statistic title={t('assignments.stats.overdue')} value={a.overdue} valueStyle={a.overdue ? { color: 'var(--ant-color-error, #cf1322)' } : undefined} />
              </Card>
            </Col>
            <Col xs={12} md={6}>
              <Card>
                <div className="statistic-label">{t('assignments.stats.due')}</div>
                <DueDate due={a.due_at} overdue={a.overdue > 0} />
                <Progress percent={a.assigned ? Math.round((a.completed / a.assigned) * 100) : 0} size="small" aria-label={t('assignments.progressOf', { title: a.title })} />
              </Card>
            </Col>
          </Row>
          <Form layout="inline" role="search" aria-label={t('assignments.people.search')} className="toolbar">
            <Form.Item label={t('assignments.people.status')}>
              <Radio.Group
                aria-label={t('assignments.people.status')}
                optionType="button"
                value={filters.status}
                onChange={(e) => setFilters({ status: e.target.value as string })}
                options={[
                  { value: '', label: t('common.filter.all') },
                  { value: 'pending', label: t('assignments.status.pending') },
                  { value: 'overdue', label: t('assignments.status.overdue') },
                  { value: 'done', label: t('assignments.status.done') },
                ]}
              />
            </Form.Item>
            <Form.Item label={t('assignments.people.department')} htmlFor="progress-department">
              <DepartmentSelect id="progress-department" value={filters.department} onChange={(department) => setFilters({ department })} />
            </Form.Item>
            <Form.Item label={t('assignments.people.q')} htmlFor="progress-q">
              <Input.Search id="progress-q" allowClear defaultValue={filters.q} enterButton={t('common.action.search')} onSearch={(q) => setFilters({ q: q.trim() })} />
            </Form.Item>
          </Form>
          {progress.isError && <ErrorNotice error={progress.error} onRetry={() => void progress.refetch()} />}
          <Table<AssignmentPerson>
            aria-label={t('assignments.people.title')}
            columns={columns}
            dataSource={progress.data?.people ?? []}
            rowKey={(p) => p.user_id}
            loading={progress.isPending || progress.isPlaceholderData}
            locale={{ emptyText: progress.isPending ? ' ' : <EmptyState>{t('assignments.people.empty')}</EmptyState> }}
            pagination={
              progress.data
                ? {
                    current: progress.data.page,
                    pageSize: progress.data.size,
                    total: progress.data.total,
                    hideOnSinglePage: true,
                    showSizeChanger: false,
                    showTotal: (total) => t('common.list.total', { count: total }),
                    onChange: setPage,
                  }
                : false
            }
          />
        </>
      )}
    </QueryView>
  );
}
