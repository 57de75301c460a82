import { useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Badge, Button, Card, Flex, Radio, Space, Typography } from 'antd';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorNotice, QueryView } from '../../components/states';
import { useListParams } from '../../components/list/useListParams';
import { canOpen } from '../../app/screens';
import { useUser } from '../../app/session';
import { humanize, useFormat } from '../../i18n/format';
import type { Notification } from '../../api/types';
import { notificationQueries } from './queries';
import { useMarkAllRead, useMarkRead } from './mutations';

export default function NotificationsPage() {
  const { t } = useTranslation();
  const { filters, setFilters } = useListParams({ filter: 'all' });
  const unreadOnly = filters.filter === 'unread';
  const list = useQuery(notificationQueries.list(unreadOnly));
  const readAll = useMarkAllRead();
  const hasUnread = list.data?.some((n) => !n.read) ?? false;
  return (
    <>
      <PageHeader
        title={t('notifications.title')}
        subtitle={t('notifications.subtitle')}
        actions={
          <Button disabled={!hasUnread} loading={readAll.isPending} onClick={() => readAll.mutate()}>
            {t('notifications.readAll')}
          </Button>
        }
      />
      <Radio.Group
        className="section"
        aria-label={t('notifications.show')}
        optionType="button"
        value={filters.filter}
        onChange={(event) => setFilters({ filter: event.target.value as string })}
        options={[
          { value: 'all', label: t('common.filter.all') },
          { value: 'unread', label: t('notifications.unread') },
        ]}
      />
      {readAll.error && <ErrorNotice error={readAll.error} />}
      <QueryView query={list}>
        {(items) =>
          items.length ? (
            <Card size="small">
              <ul className="notification-list" aria-label={t('notifications.title')}>
                {items.map((n) => (
                  <NotificationItem key={n.id} notification={n} />
                ))}
              </ul>
            </Card>
          ) : (
            <EmptyState>{unreadOnly ? t('notifications.allRead') : t('notifications.empty')}</EmptyState>
          )
        }
      </QueryView>
    </>
  );
}

const KNOWN_TYPES = ['exam_published', 'admin_notice', 'assignment', 'directed'] as const;
const isKnownType = (type: string): type is (typeof KNOWN_TYPES)[number] => (KNOWN_TYPES as readonly string[]).includes(type);

function NotificationItem({ notification: n }: { notification: Notification }) {
  const { t } = useTranslation();
  const format = useFormat();
  const navigate = useNavigate();
  const { role } = useUser();
  const read = useMarkRead();
  const typeLabel = (type: string) => (isKnownType(type) ? t(`notifications.types.${type}`) : humanize(type));
  const link = n.link.startsWith('/') && canOpen(n.link, role) ? n.link : null;
  return (
    <li aria-label={n.title} className={n.read ? 'notification' : 'notification notification-unread'}>
      <Flex gap="middle" align="flex-start" justify="space-between" className="notification-row">
        <Flex gap="small" align="flex-start">
          <Badge status={n.read ? 'default' : 'processing'} />
          <span className="visually-hidden">{t(n.read ? 'notifications.read' : 'notifications.unread')}</span>
          <div>
            <Typography.Text strong>{n.title}</Typography.Text>
            <div>
              <Typography.Text type="secondary">
                {typeLabel(n.type)} · {format.dateTime(n.created_at)}
              </Typography.Text>
            </div>
            {n.content && <Typography.Paragraph className="notification-content">{n.content}</Typography.Paragraph>}
            {read.error && <ErrorNotice error={read.error} />}
          </div>
        </Flex>
        <Space>
          {link && (
            <Button
              size="small"
              type="text"
              onClick={async () => {
                if (!n.read) await read.mutateAsync(n.id).catch(() => undefined);
                navigate(link);
              }}
            >
              {t('common.action.open')}
            </Button>
          )}
          {!n.read && (
            <Button size="small" loading={read.isPending} onClick={() => read.mutate(n.id)}>
              {t('notifications.markRead')}
            </Button>
          )}
        </Space>
      </Flex>
    </li>
  );
}
