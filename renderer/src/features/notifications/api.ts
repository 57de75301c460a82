import { api } from '../../api/client';
import type { Notification } from '../../api/types';

export const notificationKeys = {
  all: 'notifications',
  list: (unreadOnly: boolean) => `notifications/list/${unreadOnly ? 'unread' : 'all'}`,
  unread: 'notifications/unread-count',
};

export const listNotifications = (unreadOnly: boolean, signal?: AbortSignal) =>
  api.get<Notification[]>('/notifications', { query: { unread_only: unreadOnly ? 'true' : undefined }, signal });
export const unreadCount = (signal?: AbortSignal) => api.get<{ unread: number }>('/notifications/unread-count', { signal });
export const markRead = (id: number) => api.put<{ id: number; read: true }>(`/notifications/${id}/read`);
export const markAllRead = () => api.put<{ read: true }>('/notifications/read-all');
