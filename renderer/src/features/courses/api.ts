import { api } from '../../api/client';
import type { Course, CourseDetail } from '../../api/types';

export const courseKeys = {
  all: 'courses',
  list: (category: string) => `courses/list/${category}`,
  detail: (id: number) => `courses/detail/${id}`,
};

export const listCourses = (category: string | undefined, signal?: AbortSignal) => api.get<Course[]>('/courses', { query: { category }, signal });
export const getCourse = (id: number, signal?: AbortSignal) => api.get<CourseDetail>(`/courses/${id}`, { signal });
