import { useEffect } from 'react';
import { useQuery } from '../../app/query';
import { notificationKeys, unreadCount } from './api';

/** New notifications arrive from other users' actions: look again every half minute and when the window regains focus. */
const POLL_MS = 30_000;

export function useUnreadCount(): number {
  const query = useQuery(notificationKeys.unread, unreadCount);
  const { reload } = query;
  useEffect(() => {
    const timer = window.setInterval(reload, POLL_MS);
    window.addEventListener('focus', reload);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener('focus', reload);
    };
  }, [reload]);
  return query.data?.unread ?? 0;
}
