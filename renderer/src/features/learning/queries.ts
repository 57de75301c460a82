import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { CourseProgress, Leaderboard, MyPosition, PointsSummary, ProgressOverview } from '../../api/types';

export const learningKeys = {
  all: ['learning'] as const,
  progress: () => [...learningKeys.all, 'progress'] as const,
  course: (courseId: number) => [...learningKeys.all, 'course', courseId] as const,
  myPosition: () => [...learningKeys.all, 'my-position'] as const,
  points: () => [...learningKeys.all, 'points'] as const,
  leaderboard: (department: string) => [...learningKeys.all, 'leaderboard', department] as const,
};

/** How many people the leaderboard shows. */
export const LEADERBOARD_SIZE = 20;

export const learningQueries = {
  progress: () => queryOptions({ queryKey: learningKeys.progress(), queryFn: ({ signal }) => api.get<ProgressOverview>('/learning/progress', { signal }) }),
  course: (courseId: number) =>
    queryOptions({ queryKey: learningKeys.course(courseId), queryFn: ({ signal }) => api.get<CourseProgress>(`/learning/progress/${courseId}`, { signal }) }),
  myPosition: () => queryOptions({ queryKey: learningKeys.myPosition(), queryFn: ({ signal }) => api.get<MyPosition>('/learning/my-position', { signal }) }),
  points: () => queryOptions({ queryKey: learningKeys.points(), queryFn: ({ signal }) => api.get<PointsSummary>('/learning/points', { signal }) }),
  leaderboard: (department: string) =>
    queryOptions({
      queryKey: learningKeys.leaderboard(department),
      queryFn: ({ signal }) => api.get<Leaderboard>('/learning/leaderboard', { query: { department: department || undefined, limit: LEADERBOARD_SIZE }, signal }),
    }),
};
