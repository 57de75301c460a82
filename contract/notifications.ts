export interface Notification {
  id: number;
  user_id: number;
  type: string;
  title: string;
  content: string;
  link: string;
  read: boolean;
  created_at: string;
}

/** Values of Notification.type used by the platform. */
export const NotificationType = {
  examPublished: 'exam_published',
  adminNotice: 'admin_notice',
  assignment: 'assignment',
  directed: 'directed',
} as const;
