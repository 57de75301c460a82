import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Card, Col, Row, Typography } from 'antd';
import { BookOutlined, FormOutlined, MessageOutlined, ShoppingOutlined } from '@ant-design/icons';
import { useUser } from '../../app/session';
import { PageHeader } from '../../components/PageHeader';
import { MediaList } from '../../components/MediaList';
import { EmptyState, QueryView } from '../../components/states';
import { RichText } from '../../components/RichText';
import { companyQueries } from './queries';

const shortcuts = [
  { to: '/products', icon: ShoppingOutlined, title: 'home.shortcuts.products', text: 'home.shortcuts.productsText' },
  { to: '/courses', icon: BookOutlined, title: 'home.shortcuts.courses', text: 'home.shortcuts.coursesText' },
  { to: '/exams', icon: FormOutlined, title: 'home.shortcuts.exams', text: 'home.shortcuts.examsText' },
  { to: '/coach', icon: MessageOutlined, title: 'home.shortcuts.coach', text: 'home.shortcuts.coachText' },
] as const;

export default function HomePage() {
  const { t } = useTranslation();
  const user = useUser();
  const intro = useQuery(companyQueries.intro());
  return (
    <>
      <PageHeader title={t('home.welcome', { name: user.full_name || user.username })} subtitle={t('home.subtitle')} />
      <nav aria-label={t('home.shortcuts.label')}>
        <Row gutter={[16, 16]} className="section">
          {shortcuts.map(({ to, icon: Icon, title, text }) => (
            <Col key={to} xs={12} lg={6}>
              <Link to={to} className="shortcut">
                <Icon className="shortcut-icon" aria-hidden />
                <strong>{t(title)}</strong>
                <Typography.Text type="secondary">{t(text)}</Typography.Text>
              </Link>
            </Col>
          ))}
        </Row>
      </nav>
      <QueryView query={intro}>
        {(data) => (
          <Row gutter={[16, 16]}>
            <Col xs={24} xl={14}>
              <Card title={<h2 className="card-heading">{t('home.about')}</h2>}>
                {data.content.trim() ? <RichText content={data.content} /> : <EmptyState>{t('home.noIntro')}</EmptyState>}
              </Card>
            </Col>
            <Col xs={24} xl={10}>
              <Card title={<h2 className="card-heading">{t('home.media')}</h2>}>
                <MediaList medias={data.medias} emptyText={t('home.noMedia')} />
              </Card>
            </Col>
          </Row>
        )}
      </QueryView>
    </>
  );
}
