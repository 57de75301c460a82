import { queryOptions, type QueryKey } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { Department, Position, Product } from '../../api/types';
import { productKeys } from '../products/queries';
import { courseKeys } from '../courses/queries';
import { PAGE_SIZE } from '../../components/list/list-page';
import { pagedArrayQuery } from '../../components/list/paged-query';
import { optionsQuery, type RemoteOption } from '../../components/form/RemoteSelect';

export interface OrgFilter {
  q: string;
  page: number;
}

export const orgKeys = {
  all: ['org'] as const,
  departments: () => [...orgKeys.all, 'departments'] as const,
  departmentList: (filter: OrgFilter) => [...orgKeys.departments(), 'list', filter] as const,
  departmentOptions: (q: string) => [...orgKeys.departments(), 'options', q] as const,
  positions: () => [...orgKeys.all, 'positions'] as const,
  positionList: (filter: OrgFilter) => [...orgKeys.positions(), 'list', filter] as const,
  positionOptions: (q: string) => [...orgKeys.positions(), 'options', q] as const,
  position: (id: number) => [...orgKeys.positions(), 'detail', id] as const,
};

const named = (items: { id: number; name: string }[]): RemoteOption[] => items.map((i) => ({ value: i.id, label: i.name }));

/** For pickers: the first page of the items whose names contain `q`. */
const pickerList = (path: string, queryKey: QueryKey, q: string) =>
  optionsQuery(queryKey, async (signal) => named(await api.get<{ id: number; name: string }[]>(path, { query: { q, size: PAGE_SIZE }, signal })));

export const orgQueries = {
  departments: (filter: OrgFilter) => pagedArrayQuery<Department>('/system/departments', orgKeys.departmentList(filter), filter.page, { q: filter.q }),
  departmentOptions: (q: string) => pickerList('/system/departments', orgKeys.departmentOptions(q), q),
  positions: (filter: OrgFilter) => pagedArrayQuery<Position>('/system/positions', orgKeys.positionList(filter), filter.page, { q: filter.q }),
  positionOptions: (q: string) => pickerList('/system/positions', orgKeys.positionOptions(q), q),
  position: (id: number) => queryOptions({ queryKey: orgKeys.position(id), queryFn: ({ signal }) => api.get<Position>(`/system/positions/${id}`, { signal }) }),
};

/** Pickers of what a position's knowledge item may point at: the first page of products or courses matching `q`. */
export const catalogOptions = {
  product: (q: string) =>
    optionsQuery([...productKeys.all, 'options', q], async (signal) =>
      (await api.get<Product[]>('/products', { query: { q, size: PAGE_SIZE }, signal })).map((p) => ({ value: p.id, label: p.code ? `${p.name} (${p.code})` : p.name })),
    ),
  course: (q: string) => pickerList('/courses', [...courseKeys.all, 'options', q], q),
};
