import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { Course, CourseDetail } from '../../api/types';
import { pagedArrayQuery } from '../../components/list/paged-query';

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
pagedArrayQuery<Course>('/courses', courseKeys.list(filter), filter.page, { category: filter.category, q: filter.q }),
  categories: () => queryOptions({ queryKey: courseKeys.categories(), queryFn: ({ signal }) => api.get<string[]>('/courses/categories', { signal }) }),
  detail: (id: number) => queryOptions({ queryKey: courseKeys.detail(id), queryFn: ({ signal }) => api.get<CourseDetail>(`/courses/${id}`, { signal }) }),
};
