import type { Knex } from 'knex';
import type { Page } from '../../contract/envelope.js';
import { countOf } from './rows.js';
import { whereContains } from './contains.js';

export interface Paging {
  page: number;
  size: number;
}

/**
 * One page of a filtered query and the count of all its matches, run side by side. `base` carries the tables,
 * joins and filters; `select` adds the columns and the order to the copy that fetches the page.
 */
export async function paginate<Row, T>(
  base: Knex.QueryBuilder,
  paging: Paging,
  select: (query: Knex.QueryBuilder) => Knex.QueryBuilder,
  map: (row: Row) => T,
): Promise<Page<T>> {
  const [countRow, rows] = await Promise.all([
    base.clone().count({ count: '*' }).first(),
    select(base.clone()).limit(paging.size).offset((paging.page - 1) * paging.size),
  ]);
  return { items: (rows as Row[]).map((row) => map(row)), total: countOf(countRow), page: paging.page, size: paging.size };
}

/** Applies page/size when either is given (size defaults to 20, page to 1): the lists whose paging is optional. */
export function applyPaging<Q extends Knex.QueryBuilder>(query: Q, filter: { page?: number; size?: number }): Q {
  if (filter.page === undefined && filter.size === undefined) return query;
  const size = filter.size ?? 20;
  return query.limit(size).offset(((filter.page ?? 1) - 1) * size) as Q;
}

/** Keeps the rows where any of `columns` contains `filter.q` (when given), then applies the optional paging. */
export function searchAndPage<Q extends Knex.QueryBuilder>(query: Q, columns: string[], filter: { q?: string; page?: number; size?: number }): Q {
  if (filter.q) whereContains(query, columns, filter.q);
  return applyPaging(query, filter);
}
