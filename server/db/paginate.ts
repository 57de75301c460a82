import type { Knex } from 'knex';
import type { Page } from '../../contract/envelope.js';
import { countOf } from './rows.js';

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
