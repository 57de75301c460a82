import { useState } from 'react';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Card, Table } from 'antd';
import { api } from '../../api/client';
import type { NotTaken as Person, Page } from '../../api/types';
import { EmptyState, ErrorNotice } from '../../components/states';
import { PAGE_SIZE } from '../../components/list/list-page';

const notTakenQuery = (paperId: string, department: string, page: number) =>
  queryOptions({
    queryKey: ['exam-stats', 'not-taken', paperId, department, page],
    queryFn: ({ signal }) => api.get<Page<Person>>('/system/exam-stats/not-taken', { query: { paper_id: paperId, ...(department && { department }), page, size: PAGE_SIZE }, signal }),
    placeholderData: keepPreviousData,
  });

/** For one paper: the active employees who have not taken it yet. */
export function NotTaken({ paperId, department }: { paperId: string; department: string }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const list = useQuery(notTakenQuery(paperId, department, page));
  return (
    <Card className="section" title={<h2 className="card-heading">{t('assignments.record.notTakenTitle')}</h2>}>
      {list.isError && <ErrorNotice error={list.error} onRetry={() => void list.refetch()} />}
      <Table<Person>
        aria-label={t('assignments.record.notTakenTitle')}
        size="small"
        dataSource={list.data?.items ?? []}
        rowKey={(p) => p.user_id}
        loading={list.isPending || list.isPlaceholderData}
        columns={[
          { title: t('assignments.people.name'), key: 'name', render: (_, p) => p.full_name || p.username },
          { title: t('assignments.people.username'), dataIndex: 'username' },
          { title: t('assignments.people.department'), dataIndex: 'department', render: (d: string) => d || t('common.state.none') },
        ]}
        locale={{ emptyText: list.isPending ? ' ' : <EmptyState>{t('assignments.record.notTakenEmpty')}</EmptyState> }}
        pagination={list.data ? { current: list.data.page, pageSize: list.data.size, total: list.data.total, hideOnSinglePage: true, showSizeChanger: false, showTotal: (total) => t('common.list.total', { count: total }), onChange: setPage } : false}
      />
    </Card>
  );
}
