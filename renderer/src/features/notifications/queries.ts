import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { Notification } from '../../api/types';

/** New notifications come from other people's actions: the unread count is asked again every half minute (and on focus). */
const UNREAD_POLL_MS = 30_000;

export const notificationKeys = {
  all: ['notifications'] as const,
  list: (unreadOnly: boolean) => [...notificationKeys.all, 'list', unreadOnly] as const,
  unreadCount: () => [...notificationKeys.all, 'unread-count'] as const,
};

export const notificationQueries = {
  /** The caller's newest 100 (the server's bound). */
  list: (unreadOnly: boolean) =>
    queryOptions({
      queryKey: notificationKeys.list(unreadOnly),
      queryFn: ({ signal }) => api.get<Notification[]>('/notifications', { query: { unread_only: unreadOnly ? 'true' : undefined }, signal }),
    }),
  unreadCount: () =>
    queryOptions({
      queryKey: notificationKeys.unreadCount(),
      queryFn: ({ signal }) => api.get<{ unread: number }>('/notifications/unread-count', { signal }),
      refetchInterval: UNREAD_POLL_MS,
    }),
};
