import { Link } from 'react-router';
import { useQuery, queryOptions } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Col, Flex, Progress, Row, Typography } from 'antd';
import { CheckCircleOutlined, WarningOutlined } from '@ant-design/icons';
import { api } from '../../api/client';
import { useUser } from '../../app/session';
import { PageHeader } from '../../components/PageHeader';
import { CardList, DashboardCard } from '../home/DashboardCard';
import { useFormat } from '../../i18n/format';
import { assignmentQueries } from './queries';
import { DueDate } from './DueDate';

interface Counted {
  total: number;
}

const homeQueries = {
  pendingReviews: () =>
    queryOptions({
      queryKey: ['home', 'pending-reviews'],
      queryFn: async ({ signal }) => {
        const pending = { status: 'pending', page: 1, size: 1 };
        const [media, knowledge] = await Promise.all([api.get<Counted>('/media/audit-list', { query: pending, signal }), api.get<Counted>('/knowledge/audit-list', { query: pending, signal })]);
        return { media: media.total, knowledge: knowledge.total };
      },
    }),
  setup: () =>
    queryOptions({
      queryKey: ['home', 'setup'],
      queryFn: async ({ signal }) => {
        const [routes, audio] = await Promise.all([
          api.get<{ kind: string; enabled: boolean }[]>('/ai/routes', { signal }),
          api.get<{ available: boolean }[]>('/ai/routes/audio', { signal }),
        ]);
        return { chat: routes.some((r) => r.kind === 'chat' && r.enabled), speech: audio.some((r) => r.available) };
      },
    }),
};

/** The admin's home: how assignments stand, what waits for review, and what is not set up yet. */
export default function AdminHome() {
  const { t } = useTranslation();
  const user = useUser();
  return (
    <>
      <PageHeader title={t('home.welcome', { name: user.full_name || user.username })} subtitle={t('assignments.adminHome.subtitle')} />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={15}>
          <AssignmentsCard />
        </Col>
        <Col xs={24} xl={9}>
          <Flex vertical gap="middle">
            <ReviewsCard />
            <SetupCard />
          </Flex>
        </Col>
      </Row>
    </>
  );
}

function AssignmentsCard() {
  const { t } = useTranslation();
  const format = useFormat();
  const list = useQuery(assignmentQueries.list());
  return (
    <DashboardCard title={t('assignments.adminHome.assignments')} more={{ to: '/admin/assignments', label: t('assignments.adminHome.allAssignments') }} query={list}>
      {(items) => (
        <CardList
          label={t('assignments.adminHome.assignments')}
          items={items.slice(0, 6)}
          rowKey={(a) => a.id}
          empty={t('assignments.empty')}
          render={(a) => (
            <>
              <span className="home-assignment">
                <Link to={`/admin/assignments/${a.id}`}>{a.title}</Link>
                <br />
                <Typography.Text type="secondary">
                  <DueDate due={a.due_at} overdue={a.overdue > 0} />
                </Typography.Text>
              </span>
              <span className="home-assignment-progress">
                <Progress percent={a.assigned ? Math.round((a.completed / a.assigned) * 100) : 0} size="small" status={a.overdue ? 'exception' : undefined} aria-label={t('assignments.progressOf', { title: a.title })} />
                <Typography.Text type="secondary">{t('assignments.counts', { completed: format.number(a.completed), assigned: format.number(a.assigned) })}</Typography.Text>
              </span>
            </>
          )}
        />
      )}
    </DashboardCard>
  );
}

function ReviewsCard() {
  const { t } = useTranslation();
  const both = useQuery(homeQueries.pendingReviews());
  return (
    <DashboardCard title={t('assignments.adminHome.reviews')} query={both}>
      {(counts) => (
        <CardList
          label={t('assignments.adminHome.reviews')}
          items={[
            { key: 'media', to: '/admin/media', label: t('assignments.adminHome.pendingMedia'), count: counts.media },
            { key: 'knowledge', to: '/admin/knowledge', label: t('assignments.adminHome.pendingKnowledge'), count: counts.knowledge },
          ]}
          rowKey={(r) => r.key}
          render={(r) => (
            <>
              <Link to={r.to}>{r.label}</Link>
              <Typography.Text type={r.count ? 'warning' : 'secondary'}>{t('assignments.adminHome.waiting', { count: r.count })}</Typography.Text>
            </>
          )}
        />
      )}
    </DashboardCard>
  );
}

function SetupCard() {
  const { t } = useTranslation();
  const setup = useQuery(homeQueries.setup());
  return (
    <DashboardCard title={t('assignments.adminHome.setup')} query={setup}>
      {(s) => (
        <CardList
          label={t('assignments.adminHome.setup')}
          items={[
            { key: 'chat', ok: s.chat, to: '/admin/ai/routes', ok_label: t('assignments.adminHome.chatReady'), missing: t('assignments.adminHome.noChatRoute') },
            { key: 'speech', ok: s.speech, to: '/admin/speech', ok_label: t('assignments.adminHome.speechReady'), missing: t('assignments.adminHome.noSpeechModel') },
          ]}
          rowKey={(r) => r.key}
          render={(r) =>
            r.ok ? (
              <Typography.Text type="success">
                <CheckCircleOutlined aria-hidden /> {r.ok_label}
              </Typography.Text>
            ) : (
              <>
                <Typography.Text type="warning">
                  <WarningOutlined aria-hidden /> {r.missing}
                </Typography.Text>
                <Link to={r.to} className="action-link">{t('assignments.adminHome.setUp')}</Link>
              </>
            )
          }
        />
      )}
    </DashboardCard>
  );
}
