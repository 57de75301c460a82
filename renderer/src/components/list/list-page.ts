import type { Page } from '../../api/types';

export const PAGE_SIZE = 20;

/** One page of a list as the screens show it: `total` when the server counts, else only whether more may follow. */
export interface ListPage<T> {
  items: T[];
  page: number;
  size: number;
  total?: number;
  hasNext: boolean;
}

/** A server Page ({items, total, page, size}). */
export const fromPage = <T>(page: Page<T>): ListPage<T> => ({ ...page, hasNext: page.page * page.size < page.total });

/**
 * A page of a list endpoint that pages without counting (products, courses, users: `page` + `size`, an array
 * back). A full page may have a next one; an exactly full last page leads to an empty one, which says so.
 */
export const fromArray = <T>(items: T[], page: number, size: number): ListPage<T> => ({ items, page, size, hasNext: items.length >= size });
