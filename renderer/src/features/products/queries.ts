import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { Product } from '../../api/types';
import { PAGE_SIZE } from '../../components/list/list-page';
import { pagedArrayQuery } from '../../components/list/paged-query';

export interface ProductFilter {
  category: string;
  q: string;
  page: number;
}

/** Query keys of everything products: invalidate `productKeys.all` after any product change. */
export const productKeys = {
  all: ['products'] as const,
  lists: () => [...productKeys.all, 'list'] as const,
  list: (filter: ProductFilter) => [...productKeys.lists(), filter] as const,
  /** Active products whose name or code contains `q`, for pickers (the coach's product choice). */
  search: (q: string) => [...productKeys.all, 'search', q] as const,
  categories: () => [...productKeys.all, 'categories'] as const,
  detail: (id: number) => [...productKeys.all, 'detail', id] as const,
};

export const productQueries = {
  list: (filter: ProductFilter) =>
pagedArrayQuery<Product>('/products', productKeys.list(filter), filter.page, { category: filter.category, q: filter.q }),
  search: (q: string) =>
    queryOptions({ queryKey: productKeys.search(q), queryFn: ({ signal }) => api.get<Product[]>('/products', { query: { q, size: PAGE_SIZE }, signal }), placeholderData: keepPreviousData }),
  categories: () => queryOptions({ queryKey: productKeys.categories(), queryFn: ({ signal }) => api.get<string[]>('/products/categories', { signal }) }),
  detail: (id: number) => queryOptions({ queryKey: productKeys.detail(id), queryFn: ({ signal }) => api.get<Product>(`/products/${id}`, { signal }) }),
};
