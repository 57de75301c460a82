// The home page's "今日复习 N 题" card: what is due today within the daily limit, about how long it takes.
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Flex, Typography } from 'antd';
import { useFormat } from '../../i18n/format';
import { CardEmpty, DashboardCard } from '../home/DashboardCard';
import { reviewQueries } from './queries';

export function ReviewTodayCard() {
  const { t } = useTranslation();
  const format = useFormat();
  const queue = useQuery(reviewQueries.queue());
  return (
    <DashboardCard title={t('spacedReview.home.title')} query={queue}>
      {(data) =>
        data.items.length ? (
          <Flex align="center" justify="space-between" gap="middle" wrap className="review-today">
            <div>
              <div className="review-today-count">{t('spacedReview.home.count', { count: data.items.length })}</div>
              <Typography.Text type="secondary">{t('spacedReview.home.time', { minutes: data.estimated_minutes })}</Typography.Text>
              {data.due_count > data.items.length && (
                <div>
                  <Typography.Text type="secondary">{t('spacedReview.home.overflow', { count: data.due_count - data.items.length })}</Typography.Text>
                </div>
              )}
            </div>
            <Link to="/spaced-review">
              <Button type="primary">{t('spacedReview.home.start')}</Button>
            </Link>
          </Flex>
        ) : (
          <CardEmpty>
            {t('spacedReview.home.none')} {data.next_due && t('spacedReview.home.next', { date: format.dateTime(data.next_due) })}
          </CardEmpty>
        )
      }
    </DashboardCard>
  );
}
