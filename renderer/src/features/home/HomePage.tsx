import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Col, Flex, Row } from 'antd';
import { useUser } from '../../app/session';
import { PageHeader } from '../../components/PageHeader';
import { PositionCard } from './PositionCard';
import { CertificatesCard, ExamsToTakeCard, ProgressCard, UnreadCard } from './DashboardCards';
import { ReviewTodayCard } from '../spaced-review/ReviewTodayCard';
import { Loading } from '../../components/states';
import { MyTasksCard } from '../assignments/MyTasksCard';

// An admin's home is about running the training, not taking it: its own code, loaded only for admins.
const AdminHome = lazy(() => import('../assignments/AdminHome'));

/** The trainee's dashboard: every card loads side by side (one request each, none waits for another). */
export default function HomePage() {
  const { t } = useTranslation();
  const user = useUser();
  if (user.role === 'admin') {
    return (
      <Suspense fallback={<Loading />}>
        <AdminHome />
      </Suspense>
    );
  }
  return (
    <>
      <PageHeader title={t('home.welcome', { name: user.full_name || user.username })} subtitle={t('home.subtitle')} />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={15}>
          <Flex vertical gap="middle">
            <MyTasksCard />
            <PositionCard />
            <ExamsToTakeCard />
          </Flex>
        </Col>
        <Col xs={24} xl={9}>
          <Flex vertical gap="middle">
            <ReviewTodayCard />
            <ProgressCard />
            <CertificatesCard />
            <UnreadCard />
          </Flex>
        </Col>
      </Row>
    </>
  );
}
