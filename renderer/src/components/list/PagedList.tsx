import type { Key, ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { EmptyState, ErrorNotice, QueryView } from '../states';
import { SimpleList } from '../SimpleList';
import { SimplePager } from './SimplePager';
import type { ListPage } from './list-page';

interface Props<T> {
  label?: string;
  query: UseQueryResult<ListPage<T>>;
  rowKey(item: T): Key;
  render(item: T): ReactNode;
  onPage(page: number): void;
  /** What an empty first page says (nothing yet, or nothing matches the search). */
  empty: ReactNode;
}

/**
 * A server-paged list of items that are not table rows (notes, tasks): loading, the error with "try again" (also
 * over the page still shown), the empty text, and previous/next.
 */
export function PagedList<T>({ label, query, rowKey, render, onPage, empty }: Props<T>) {
  const { t } = useTranslation();
  return (
    <QueryView query={query}>
      {(data) => (
        <>
          {query.isError && <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />}
          {data.items.length ? <SimpleList label={label} items={data.items} rowKey={rowKey} render={render} /> : <EmptyState>{data.page > 1 ? t('common.list.noMore') : empty}</EmptyState>}
          <SimplePager page={data.page} hasNext={data.hasNext} onPage={onPage} />
        </>
      )}
    </QueryView>
  );
}
