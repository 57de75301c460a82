/** Learning progress, points and the department leaderboard: per-user records the spec names without shapes (2.2). */
import type { PositionKnowledge } from './users.js';

export type CourseProgressStatus = 'not_started' | 'viewed' | 'completed';

export interface CourseProgress {
  course_id: number;
  course_title: string;
  status: CourseProgressStatus;
  viewed_at: string | null;
  completed_at: string | null;
  updated_at: string | null;
}

export interface CourseProgressUpdate extends CourseProgress {
  /** Points earned by this call (course completion is rewarded once). */
  points_awarded: number;
}

export interface ProgressOverview {
  user_id: number;
  /** Active courses. */
  total_courses: number;
  viewed: number;
  completed: number;
  /** completed / total_courses × 100, rounded to an integer; 0 when there are no courses. */
  percent_complete: number;
  /** Courses the user has opened, most recently updated first. */
  items: CourseProgress[];
}

export type PointSource = 'exam' | 'course';

export interface PointEvent {
  id: number;
  source_type: PointSource;
  /** Paper id for `exam`, course id for `course`. */
  source_id: number;
  /** The exam record that earned the points (exam only). */
  record_id: number | null;
  points: number;
  reason: string;
  created_at: string;
}

export interface PointsSummary {
  user_id: number;
  total: number;
  /** Rank among active employees by total (ties share a rank); null for users outside the ranking (admins). */
  rank: number | null;
  /** Newest first, at most 100. */
  events: PointEvent[];
}

export interface DepartmentStanding {
  rank: number;
  department: string;
  total_points: number;
  member_count: number;
  average_points: number;
}

export interface UserStanding {
  rank: number;
  user_id: number;
  full_name: string;
  username: string;
  department: string;
  points: number;
}

export interface Leaderboard {
  departments: DepartmentStanding[];
  /** Top users, within `department` when the query names one. */
  users: UserStanding[];
}

export const PointRules = {
  /** First passed formal record of a paper. */
  examPassed: 10,
  /** First completion of a course. */
  courseCompleted: 5,
} as const;

/** A knowledge item of the caller's position, with the caller's progress when it is a course. */
export interface MyPositionItem extends PositionKnowledge {
  /** The caller's progress on the course the item names (kind `course`); null for products, texts and courses no longer offered. */
  progress: CourseProgressStatus | null;
}

/** GET /api/learning/my-position: what the caller's position asks them to know. */
export interface MyPosition {
  /** null when the caller has no position. */
  position: { id: number; name: string; description: string } | null;
  /** In the position's order (sort_order, then id); mandatory and optional items alike. */
  items: MyPositionItem[];
  mandatory_count: number;
  /** Mandatory items that are courses still offered: what can be completed. */
  mandatory_courses: number;
  /** Mandatory course items the caller has completed. */
  mandatory_completed: number;
}
