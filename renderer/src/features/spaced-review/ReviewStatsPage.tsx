// Admins: spaced review per department and person (due, overdue, predicted recall), the weakest questions and
// knowledge domains, and reviews per day (the chart loads lazily with echarts).
import { lazy, Suspense, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Card, Col, Row, Select, Table, Typography } from 'antd';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, QueryView } from '../../components/states';
import { Loading } from '../../components/Loading';
import { useFormat } from '../../i18n/format';
import type { ReviewStats } from '../../api/types';
import { reviewQueries } from './queries';
import { ReviewSettings } from './ReviewSettings';

const ReviewsPerDayChart = lazy(() => import('./ReviewsPerDayChart'));
const DAYS = 30;

export default function ReviewStatsPage() {
  const { t } = useTranslation();
  const [department, setDepartment] = useState('');
  const stats = useQuery(reviewQueries.stats(department, DAYS));
  const everyone = useQuery(reviewQueries.stats('', DAYS));
  const departments = everyone.data?.departments.map((d) => d.department) ?? [];
  return (
    <>
      <PageHeader
        title={t('spacedReview.stats.title')}
        subtitle={t('spacedReview.stats.subtitle')}
        actions={
          <Select
            aria-label={t('spacedReview.stats.department')}
            style={{ minWidth: 200 }}
            value={department}
            onChange={setDepartment}
            options={[{ value: '', label: t('spacedReview.stats.allDepartments') }, ...departments.map((d) => ({ value: d, label: d || t('spacedReview.stats.noDepartment') }))]}
          />
        }
      />
      <ReviewSettings />
      <QueryView query={stats}>{(data) => (data.departments.length || data.reviews_per_day.some((d) => d.reviews) ? <Figures stats={data} /> : <EmptyState>{t('spacedReview.stats.empty')}</EmptyState>)}</QueryView>
    </>
  );
}

function Figures({ stats }: { stats: ReviewStats }) {
  const { t } = useTranslation();
  const format = useFormat();
  const recall = (value: number | null) => (value === null ? '—' : format.percent(value * 100));
  const departmentName = (d: string) => d || t('spacedReview.stats.noDepartment');
  return (
    <>
      <Card title={<h2 className="card-heading">{t('spacedReview.stats.perDay')}</h2>} className="section">
        <Suspense fallback={<Loading />}>
          <ReviewsPerDayChart days={stats.reviews_per_day} />
        </Suspense>
      </Card>
      <Card title={<h2 className="card-heading">{t('spacedReview.stats.byDepartment')}</h2>} className="section">
        <Table
          size="small"
          rowKey="department"
          pagination={false}
          dataSource={stats.departments}
          scroll={{ x: true }}
          columns={[
            { title: t('spacedReview.stats.department'), dataIndex: 'department', render: departmentName },
            { title: t('spacedReview.stats.people'), dataIndex: 'people', align: 'right' },
            { title: t('spacedReview.stats.cards'), dataIndex: 'cards', align: 'right' },
            { title: t('spacedReview.stats.due'), dataIndex: 'due', align: 'right' },
            { title: t('spacedReview.stats.overdue'), dataIndex: 'overdue', align: 'right' },
            { title: t('spacedReview.stats.recall'), dataIndex: 'mean_retrievability', align: 'right', render: recall },
          ]}
        />
      </Card>
      <Row gutter={[16, 16]} className="section">
        {stats.departments.map((d) => (
          <Col xs={24} xl={12} key={d.department}>
            <Card title={<h2 className="card-heading">{departmentName(d.department)}</h2>}>
              <Typography.Text strong>{t('spacedReview.stats.weakestQuestions')}</Typography.Text>
              <Table
                size="small"
                rowKey="question_id"
                pagination={false}
                dataSource={d.weakest_questions}
                columns={[
                  { title: t('spacedReview.session.question'), dataIndex: 'stem', ellipsis: true },
                  { title: t('spacedReview.stats.cards'), dataIndex: 'cards', align: 'right', width: 80 },
                  { title: t('spacedReview.stats.recall'), dataIndex: 'retrievability', align: 'right', width: 140, render: recall },
                ]}
              />
              <Typography.Text strong style={{ display: 'block', marginTop: 16 }}>
                {t('spacedReview.stats.weakestDomains')}
              </Typography.Text>
              <Table
                size="small"
                rowKey="domain"
                pagination={false}
                dataSource={d.weakest_domains}
                columns={[
                  { title: t('spacedReview.stats.domain'), dataIndex: 'domain' },
                  { title: t('spacedReview.stats.cards'), dataIndex: 'cards', align: 'right', width: 80 },
                  { title: t('spacedReview.stats.recall'), dataIndex: 'retrievability', align: 'right', width: 140, render: recall },
                ]}
              />
            </Card>
          </Col>
        ))}
      </Row>
      <Card title={<h2 className="card-heading">{t('spacedReview.stats.byPerson')}</h2>} className="section">
        <Table
          size="small"
          rowKey="user_id"
          dataSource={stats.people}
          scroll={{ x: true }}
          columns={[
            { title: t('spacedReview.stats.person'), dataIndex: 'full_name', render: (name: string, p) => name || p.username },
            { title: t('spacedReview.stats.department'), dataIndex: 'department', render: departmentName },
            { title: t('spacedReview.stats.cards'), dataIndex: 'cards', align: 'right' },
            { title: t('spacedReview.stats.due'), dataIndex: 'due', align: 'right' },
            { title: t('spacedReview.stats.overdue'), dataIndex: 'overdue', align: 'right' },
            { title: t('spacedReview.stats.recall'), dataIndex: 'mean_retrievability', align: 'right', render: recall },
            { title: t('spacedReview.stats.reviews7d'), dataIndex: 'reviews_7d', align: 'right' },
          ]}
        />
      </Card>
    </>
  );
}
