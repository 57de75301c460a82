import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { CourseProgressUpdate } from '../../api/types';
import { learningKeys } from './queries';

/** Marks a course viewed or completed (completing earns points once): progress, position and points change. */
export function useUpdateProgress(courseId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (status: 'viewed' | 'completed') => api.put<CourseProgressUpdate>(`/learning/progress/${courseId}`, { status }),
    onSuccess: (progress) => {
      queryClient.setQueryData(learningKeys.course(courseId), progress);
      return queryClient.invalidateQueries({ queryKey: learningKeys.all });
    },
  });
}
