import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Flex, Progress, Tag, Typography } from 'antd';
import type { ParseKeys } from 'i18next';
import { StatusTag, type Tone } from '../../components/StatusTag';
import type { CourseProgressStatus, MyPositionItem, PositionKnowledge } from '../../api/types';
import { dashboardQueries } from './dashboard-data';
import { CardEmpty, CardList, DashboardCard } from './DashboardCard';

const KIND: Record<PositionKnowledge['kind'], ParseKeys> = { course: 'home.position.kind.course', product: 'home.position.kind.product', text: 'home.position.kind.text' };
export const PROGRESS: Record<CourseProgressStatus, { label: ParseKeys; tone: Tone }> = {
  not_started: { label: 'home.progress.status.not_started', tone: 'neutral' },
  viewed: { label: 'home.progress.status.viewed', tone: 'info' },
  completed: { label: 'home.progress.status.completed', tone: 'success' },
};

const linkOf = (item: MyPositionItem) => (item.ref_id === null ? null : item.kind === 'course' ? `/courses/${item.ref_id}` : item.kind === 'product' ? `/products/${item.ref_id}` : null);

function KnowledgeItem({ item }: { item: MyPositionItem }) {
  const { t } = useTranslation();
  const to = linkOf(item);
  return (
    <>
      <span>
        <Tag>{t(KIND[item.kind])}</Tag>
        {to ? <Link to={to}>{item.title}</Link> : item.title}
      </span>
      <span>
        {item.progress && <StatusTag tone={PROGRESS[item.progress].tone}>{t(PROGRESS[item.progress].label)}</StatusTag>}
        <StatusTag tone={item.is_mandatory ? 'warning' : 'neutral'}>{t(item.is_mandatory ? 'home.position.mandatory' : 'home.position.optional')}</StatusTag>
      </span>
    </>
  );
}

/** What my position asks me to know, mandatory items first, with my progress on its courses. */
export function PositionCard() {
  const { t } = useTranslation();
  const position = useQuery(dashboardQueries.myPosition());
  return (
    <DashboardCard title={t('home.position.title')} query={position}>
      {(data) => {
        if (!data.position) return <CardEmpty>{t('home.position.none')}</CardEmpty>;
        const items = [...data.items].sort((a, b) => Number(b.is_mandatory) - Number(a.is_mandatory));
        return (
          <>
            <Flex justify="space-between" align="center" gap="middle" wrap className="section">
              <div>
                <strong>{data.position.name}</strong>
                {data.position.description && (
                  <div>
                    <Typography.Text type="secondary">{data.position.description}</Typography.Text>
                  </div>
                )}
              </div>
              {data.mandatory_courses > 0 && (
                <Flex align="center" gap="small">
                  <Typography.Text>{t('home.position.mandatoryDone', { done: data.mandatory_completed, count: data.mandatory_courses })}</Typography.Text>
                  <Progress
                    type="circle"
                    size={44}
                    percent={Math.round((data.mandatory_completed / data.mandatory_courses) * 100)}
                    aria-label={t('home.position.mandatoryDone', { done: data.mandatory_completed, count: data.mandatory_courses })}
                  />
                </Flex>
              )}
            </Flex>
            <CardList label={t('home.position.items')} items={items} rowKey={(i) => i.id} empty={t('home.position.noItems')} render={(item) => <KnowledgeItem item={item} />} />
          </>
        );
      }}
    </DashboardCard>
  );
}
