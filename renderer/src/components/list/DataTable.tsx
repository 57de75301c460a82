import type { Key, ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Table, type TableColumnsType } from 'antd';
import { EmptyState, ErrorNotice } from '../states';
import { SimplePager } from './SimplePager';
import type { ListPage } from './list-page';

interface Props<T> {
  /** The table's accessible name. */
  label: string;
  query: UseQueryResult<ListPage<T>>;
  columns: TableColumnsType<T>;
  rowKey: (row: T) => Key;
  onPage(page: number): void;
  /** What an empty page says (e.g. why nothing matches). */
  empty: ReactNode;
}

/**
 * A server-paged list as an antd table: a spinner while a page loads (the previous one stays visible; a refresh
 * in the background shows none), the
 * error with "try again", the empty text, and the pager (numbered when the server counts, else previous/next).
 */
export function DataTable<T extends object>({ label, query, columns, rowKey, onPage, empty }: Props<T>) {
  const { t } = useTranslation();
  const data = query.data;
  const counted = data?.total !== undefined;
  return (
    <div className="data-table">
      {query.isError && <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />}
      <Table<T>
        aria-label={label}
        columns={columns}
        dataSource={data?.items ?? []}
        rowKey={rowKey}
        loading={query.isPending || query.isPlaceholderData}
        locale={{ emptyText: query.isPending ? ' ' : <EmptyState>{empty}</EmptyState> }}
        pagination={
          counted && data
            ? {
                current: data.page,
                pageSize: data.size,
                total: data.total,
                hideOnSinglePage: true,
                showSizeChanger: false,
                showTotal: (total) => t('common.list.total', { count: total }),
                onChange: onPage,
              }
            : false
        }
      />
      {!counted && data && <SimplePager page={data.page} hasNext={data.hasNext} onPage={onPage} />}
    </div>
  );
}
