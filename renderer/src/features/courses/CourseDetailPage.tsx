import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Card, Col, Flex, Row, Typography } from 'antd';
import { SimpleList } from '../../components/SimpleList';
import { PageHeader } from '../../components/PageHeader';
import { MediaList } from '../../components/MediaList';
import { NotFound } from '../../components/NotFound';
import { EmptyState, QueryView } from '../../components/states';
import { RichText } from '../../components/RichText';
import { useIdParam } from '../../components/useIdParam';
import { humanize, useFormat } from '../../i18n/format';
import type { CourseDetail } from '../../api/types';
import { courseQueries } from './queries';
import { CourseProgressControl } from '../learning/CourseProgressControl';
import { learningQueries } from '../learning/queries';

export default function CourseDetailPage() {
  const id = useIdParam();
  const course = useQuery({ ...courseQueries.detail(id ?? 0), enabled: id !== null });
  // My progress on it loads beside the course rather than after it.
  useQuery({ ...learningQueries.course(id ?? 0), enabled: id !== null });
  if (id === null) return <NotFound />;
  return <QueryView query={course}>{(c) => <Course course={c} />}</QueryView>;
}

function Course({ course }: { course: CourseDetail }) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <>
      <PageHeader
        back={{ to: '/courses', label: t('courses.back') }}
        title={course.title}
        subtitle={[humanize(course.category), course.duration_minutes ? format.minutes(course.duration_minutes) : ''].filter(Boolean).join(' · ')}
        actions={<CourseProgressControl courseId={course.id} />}
      />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={15}>
          <Flex vertical gap="middle">
            <Card title={<h2 className="card-heading">{t('courses.content')}</h2>}>
              {course.summary && <Typography.Paragraph className="lead">{course.summary}</Typography.Paragraph>}
              {course.content ? <RichText content={course.content} /> : !course.summary && <Typography.Text type="secondary">{t('courses.noContent')}</Typography.Text>}
            </Card>
            <Card title={<h2 className="card-heading">{t('courses.media')}</h2>}>
              <MediaList medias={course.medias} emptyText={t('courses.noMedia')} />
            </Card>
          </Flex>
        </Col>
        <Col xs={24} xl={9}>
          <Card title={<h2 className="card-heading">{t('courses.products')}</h2>}>
            {course.products.length ? (
              <SimpleList
                items={course.products}
                rowKey={(product) => product.id}
                render={(product) => (
                  <Flex className="list-row" justify="space-between" gap="middle">
                    <Link to={`/products/${product.id}`}>{product.name}</Link>
                    <Typography.Text type="secondary">{humanize(product.category)}</Typography.Text>
                  </Flex>
                )}
              />
            ) : (
              <EmptyState>{t('courses.noProducts')}</EmptyState>
            )}
          </Card>
        </Col>
      </Row>
    </>
  );
}
