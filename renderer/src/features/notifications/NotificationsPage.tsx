import { useMutation, useQuery } from '../../app/query';
import { navigate, useLocation } from '../../app/router';
import { PageHeader } from '../../components/PageHeader';
import { Empty, ErrorNotice, QueryView } from '../../components/states';
import { formatDateTime, humanize } from '../../components/format';
import type { Notification } from '../../api/types';
import { listNotifications, markAllRead, markRead, notificationKeys } from './api';

/** `canOpen` says whether a notification's link is a page of this app the user may see. */
export function NotificationsPage({ canOpen }: { canOpen(link: string): boolean }) {
  const unreadOnly = useLocation().query.get('filter') === 'unread';
  const list = useQuery(notificationKeys.list(unreadOnly), (signal) => listNotifications(unreadOnly, signal));
  const readAll = useMutation(markAllRead, [notificationKeys.all]);
  const hasUnread = list.data?.some((n) => !n.read) ?? false;

  return (
    <>
      <PageHeader
        title="Notifications"
        subtitle="Exams, assignments and notices sent to you."
        actions={
          <button type="button" className="button" disabled={!hasUnread || readAll.busy} onClick={() => readAll.run()}>
            Mark all as read
          </button>
        }
      />
      <div className="chips" role="group" aria-label="Show">
        <button type="button" className={`chip${unreadOnly ? '' : ' chip-active'}`} aria-pressed={!unreadOnly} onClick={() => navigate('/notifications')}>
          All
        </button>
        <button type="button" className={`chip${unreadOnly ? ' chip-active' : ''}`} aria-pressed={unreadOnly} onClick={() => navigate('/notifications?filter=unread')}>
          Unread
        </button>
      </div>
      {readAll.error && <ErrorNotice error={readAll.error} />}
      <QueryView query={list}>
        {(items) =>
          items.length ? (
            <ul className="notification-list" aria-label="Notifications">
              {items.map((n) => (
                <NotificationItem key={n.id} notification={n} link={n.link.startsWith('/') && canOpen(n.link) ? n.link : null} />
              ))}
            </ul>
          ) : (
            <Empty>{unreadOnly ? 'You have read everything.' : 'No notifications yet.'}</Empty>
          )
        }
      </QueryView>
    </>
  );
}

function NotificationItem({ notification: n, link }: { notification: Notification; link: string | null }) {
  const read = useMutation(() => markRead(n.id), [notificationKeys.all]);
  return (
    <li className={`notification${n.read ? '' : ' notification-unread'}`} aria-label={n.title}>
      <span className="notification-dot" aria-label={n.read ? 'Read' : 'Unread'} />
      <div className="notification-body">
        <div className="notification-head">
          <strong>{n.title}</strong>
          <span className="muted">
            {humanize(n.type)} · {formatDateTime(n.created_at)}
          </span>
        </div>
        {n.content && <p>{n.content}</p>}
        {read.error && <ErrorNotice error={read.error} />}
      </div>
      <div className="notification-actions">
        {link && (
          <button
            type="button"
            className="button button-small button-ghost"
            onClick={async () => {
              if (!n.read) await read.run();
              navigate(link);
            }}
          >
            Open
          </button>
        )}
        {!n.read && (
          <button type="button" className="button button-small" disabled={read.busy} onClick={() => read.run()}>
            Mark as read
          </button>
        )}
      </div>
    </li>
  );
}
