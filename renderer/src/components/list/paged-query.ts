import { keepPreviousData, queryOptions, type QueryKey } from '@tanstack/react-query';
import { api, type Query } from '../../api/client';
import { fromArray, PAGE_SIZE } from './list-page';

/**
 * A page of an array endpoint that pages with `page` + `size` (and filters with `query`, e.g. `q`), as a ListPage;
 * the previous page stays on screen while the next one loads.
 */
export const pagedArrayQuery = <T>(path: string, queryKey: QueryKey, page: number, query: Query = {}) =>
  queryOptions({
    queryKey,
    queryFn: async ({ signal }) => fromArray(await api.get<T[]>(path, { query: { ...query, page, size: PAGE_SIZE }, signal }), page, PAGE_SIZE),
    placeholderData: keepPreviousData,
  });
