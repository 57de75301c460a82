import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { Product } from '../../api/types';
import { fromArray, PAGE_SIZE } from '../../components/list/list-page';
import { productKeys } from '../products/queries';

export type ProductStatusFilter = 'all' | 'active' | 'inactive';

export interface ProductAdminFilter {
  q: string;
  status: ProductStatusFilter;
  category: string;
  page: number;
}

/** Under productKeys.all, so that a change anywhere refreshes the catalog and this list alike. */
export const productAdminKeys = {
  list: (filter: ProductAdminFilter) => [...productKeys.all, 'admin', filter] as const,
};

export const productAdminQueries = {
  list: (filter: ProductAdminFilter) =>
    queryOptions({
      queryKey: productAdminKeys.list(filter),
      queryFn: async ({ signal }) =>
        fromArray(
          await api.get<Product[]>('/products', { query: { q: filter.q, status: filter.status, category: filter.category, page: filter.page, size: PAGE_SIZE }, signal }),
          filter.page,
          PAGE_SIZE,
        ),
      placeholderData: keepPreviousData,
    }),
};
