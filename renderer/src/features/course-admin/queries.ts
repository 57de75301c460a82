import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { Course, CourseDetail } from '../../api/types';
import { courseKeys } from '../courses/queries';
import { pagedArrayQuery } from '../../components/list/paged-query';

export interface CourseAdminFilter {
  q: string;
  status: 'all' | 'active' | 'inactive';
  page: number;
}

/** The editor's view: every bound product, inactive ones too (admin only, `include_inactive=true`). */
const WHOLE_SET = { include_inactive: true };

export const courseAdminKeys = {
  list: (filter: CourseAdminFilter) => [...courseKeys.all, 'admin', 'list', filter] as const,
  detail: (id: number) => [...courseKeys.all, 'admin', 'detail', id] as const,
};

export const courseAdminQueries = {
  list: (filter: CourseAdminFilter) =>
pagedArrayQuery<Course>('/courses', courseAdminKeys.list(filter), filter.page, { q: filter.q, status: filter.status, ...WHOLE_SET }),
  detail: (id: number) => queryOptions({ queryKey: courseAdminKeys.detail(id), queryFn: ({ signal }) => api.get<CourseDetail>(`/courses/${id}`, { query: WHOLE_SET, signal }) }),
};

export { WHOLE_SET };
