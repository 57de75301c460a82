import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { ActiveStatus, CourseDetail } from '../../api/types';
import { courseKeys } from '../courses/queries';
import { courseAdminKeys, WHOLE_SET } from './queries';

export interface CourseFields {
  title: string;
  category: string;
  summary: string;
  content: string;
  duration_minutes: number | null;
}

export interface CourseChange extends Partial<CourseFields> {
  status?: ActiveStatus;
  bind_product_ids?: number[];
  unbind_product_ids?: number[];
}

/** Every course change answers the whole course (editor's view): it goes straight into the editor's cache. */
function useCourseChange<V>(send: (value: V) => Promise<CourseDetail>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (course) => {
      queryClient.setQueryData(courseAdminKeys.detail(course.id), course);
      return queryClient.invalidateQueries({ queryKey: courseKeys.all });
    },
  });
}

export const useCreateCourse = () => useCourseChange((fields: CourseFields) => api.post<CourseDetail>('/courses', fields, { query: WHOLE_SET }));

export const useUpdateCourse = () => useCourseChange(({ id, change }: { id: number; change: CourseChange }) => api.put<CourseDetail>(`/courses/${id}`, change, { query: WHOLE_SET }));

/** Soft delete (DELETE sets `inactive`, answering the course as everyone sees it), or bringing it back. */
export function useSetCourseActive() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, active }: { id: number; active: boolean }) => (active ? api.put(`/courses/${id}`, { status: 'active' }) : api.delete(`/courses/${id}`)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: courseKeys.all }),
  });
}
