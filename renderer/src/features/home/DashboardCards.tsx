// The home page's smaller cards; each shows one query and links to the screen that has all of it.
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Flex, Progress, Typography } from 'antd';
import { StatusTag } from '../../components/StatusTag';
import { useFormat } from '../../i18n/format';
import { dashboardQueries } from './dashboard-data';
import { paperType, standing } from '../exams/standing';
import { CardList, DashboardCard } from './DashboardCard';
import { PROGRESS } from './PositionCard';

/** How many rows a card lists before "see all". */
const ROWS = 5;

export function ProgressCard() {
  const { t } = useTranslation();
  const progress = useQuery(dashboardQueries.progress());
  return (
    <DashboardCard title={t('home.progress.title')} more={{ to: '/courses', label: t('home.progress.more') }} query={progress}>
      {(data) => (
        <>
          <Flex align="center" gap="middle" className="section">
            <Progress type="circle" size={72} percent={data.percent_complete} aria-label={t('home.progress.percent', { percent: data.percent_complete })} />
            <div>
              <div>{t('home.progress.completed', { done: data.completed, count: data.total_courses })}</div>
              <Typography.Text type="secondary">{t('home.progress.viewed', { count: data.viewed })}</Typography.Text>
            </div>
          </Flex>
          <CardList
            label={t('home.progress.continue')}
            items={data.items.filter((i) => i.status !== 'completed').slice(0, 3)}
            rowKey={(i) => i.course_id}
            render={(i) => (
              <>
                <Link to={`/courses/${i.course_id}`}>{i.course_title}</Link>
                <StatusTag tone={PROGRESS[i.status].tone}>{t(PROGRESS[i.status].label)}</StatusTag>
              </>
            )}
          />
        </>
      )}
    </DashboardCard>
  );
}

/** Exams I can still start and have not passed: formal ones first. */
export function ExamsToTakeCard() {
  const { t } = useTranslation();
  const format = useFormat();
  const exams = useQuery(dashboardQueries.exams());
  return (
    <DashboardCard title={t('home.exams.title')} more={{ to: '/exams', label: t('home.exams.more') }} query={exams}>
      {(list) => (
        <CardList
          label={t('home.exams.title')}
          items={list
            .filter((e) => e.can_start && e.status !== 'passed')
            .sort((a, b) => Number(b.type === 'formal') - Number(a.type === 'formal'))
            .slice(0, ROWS)}
          rowKey={(e) => e.id}
          empty={t('home.exams.none')}
          render={(e) => (
            <>
              <span>
                <Link to={`/exams/${e.id}`}>{e.name}</Link>{' '}
                <Typography.Text type="secondary">
                  {t(paperType[e.type])} · {format.minutes(e.duration_minutes)}
                </Typography.Text>
              </span>
              <StatusTag tone={standing[e.status].tone}>{t(standing[e.status].label)}</StatusTag>
            </>
          )}
        />
      )}
    </DashboardCard>
  );
}

export function CertificatesCard() {
  const { t } = useTranslation();
  const format = useFormat();
  const certificates = useQuery(dashboardQueries.certificates());
  return (
    <DashboardCard title={t('home.certificates.title')} more={{ to: '/records', label: t('home.certificates.more') }} query={certificates}>
      {(list) => (
        <CardList
          label={t('home.certificates.title')}
          items={[...list].sort((a, b) => b.issued_at.localeCompare(a.issued_at)).slice(0, 3)}
          rowKey={(c) => c.id}
          empty={t('records.noCertificates')}
          render={(c) => (
            <>
              <Link to={`/certificates/${c.id}`}>{c.exam_name}</Link>
              <Typography.Text type="secondary">{format.date(c.issued_at)}</Typography.Text>
            </>
          )}
        />
      )}
    </DashboardCard>
  );
}

export function UnreadCard() {
  const { t } = useTranslation();
  const format = useFormat();
  const unread = useQuery(dashboardQueries.unread());
  return (
    <DashboardCard title={t('home.notifications.title')} more={{ to: '/notifications', label: t('home.notifications.more') }} query={unread}>
      {(list) => (
        <CardList
          label={t('home.notifications.title')}
          items={list.slice(0, ROWS)}
          rowKey={(n) => n.id}
          empty={t('notifications.allRead')}
          render={(n) => (
            <>
              <strong>{n.title}</strong>
              <Typography.Text type="secondary">{format.dateTime(n.created_at)}</Typography.Text>
            </>
          )}
        />
      )}
    </DashboardCard>
  );
}
