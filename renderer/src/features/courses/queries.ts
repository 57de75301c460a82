import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { Course, CourseDetail } from '../../api/types';
import { fromArray, PAGE_SIZE } from '../../components/list/list-page';

export interface CourseFilter {
  category: string;
  q: string;
  page: number;
}

export const courseKeys = {
  all: ['courses'] as const,
  lists: () => [...courseKeys.all, 'list'] as const,
  list: (filter: CourseFilter) => [...courseKeys.lists(), filter] as const,
  categories: () => [...courseKeys.all, 'categories'] as const,
  detail: (id: number) => [...courseKeys.all, 'detail', id] as const,
};

export const courseQueries = {
  list: (filter: CourseFilter) =>
    queryOptions({
      queryKey: courseKeys.list(filter),
      queryFn: async ({ signal }) =>
        fromArray(await api.get<Course[]>('/courses', { query: { category: filter.category, q: filter.q, page: filter.page, size: PAGE_SIZE }, signal }), filter.page, PAGE_SIZE),
      placeholderData: keepPreviousData,
    }),
  categories: () => queryOptions({ queryKey: courseKeys.categories(), queryFn: ({ signal }) => api.get<string[]>('/courses/categories', { signal }) }),
  detail: (id: number) => queryOptions({ queryKey: courseKeys.detail(id), queryFn: ({ signal }) => api.get<CourseDetail>(`/courses/${id}`, { signal }) }),
};
