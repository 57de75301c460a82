import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Card, Col, Flex, Row, Select, Statistic, Table, Typography, type TableColumnsType } from 'antd';
import type { ParseKeys } from 'i18next';
import { PageHeader } from '../../components/PageHeader';
import { SimpleList } from '../../components/SimpleList';
import { EmptyState, QueryView } from '../../components/states';
import { useListParams } from '../../components/list/useListParams';
import { useFormat } from '../../i18n/format';
import type { DepartmentStanding, PointSource, UserStanding } from '../../api/types';
import { learningQueries } from './queries';

const SOURCE: Record<PointSource, ParseKeys> = { exam: 'learning.points.source.exam', course: 'learning.points.source.course' };
/** How many of my newest point events the page lists. */
const EVENTS_SHOWN = 10;

/** My points, the departments' ranking and the top people (of one department when chosen). */
export default function LeaderboardPage() {
  const { t } = useTranslation();
  const { filters, setFilters } = useListParams({ department: '' });
  const everyone = useQuery(learningQueries.leaderboard(''));
  const chosen = useQuery(learningQueries.leaderboard(filters.department));
  const departments = everyone.data?.departments.map((d) => d.department).filter(Boolean) ?? [];
  return (
    <>
      <PageHeader title={t('learning.leaderboard.title')} subtitle={t('learning.leaderboard.subtitle')} />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={8}>
          <MyPoints />
        </Col>
        <Col xs={24} xl={16}>
          <Flex vertical gap="middle">
            <Card title={<h2 className="card-heading">{t('learning.leaderboard.departments')}</h2>}>
              <QueryView query={everyone}>{(data) => <DepartmentTable rows={data.departments} />}</QueryView>
            </Card>
            <Card
              title={<h2 className="card-heading">{t('learning.leaderboard.people')}</h2>}
              extra={
                <Select
                  aria-label={t('learning.leaderboard.department')}
                  style={{ minWidth: 180 }}
                  value={filters.department}
                  onChange={(department: string) => setFilters({ department })}
                  options={[{ value: '', label: t('learning.leaderboard.allDepartments') }, ...departments.map((d) => ({ value: d, label: d }))]}
                />
              }
            >
              <QueryView query={chosen}>{(data) => <PeopleTable rows={data.users} />}</QueryView>
            </Card>
          </Flex>
        </Col>
      </Row>
    </>
  );
}

function MyPoints() {
  const { t } = useTranslation();
  const format = useFormat();
  const points = useQuery(learningQueries.points());
  return (
    <Card title={<h2 className="card-heading">{t('learning.points.mine')}</h2>}>
      <QueryView query={points}>
        {(data) => (
          <>
            <Flex gap="large" className="section">
              <Statistic title={t('learning.points.total')} value={format.number(data.total)} />
              <Statistic title={t('learning.points.rank')} value={data.rank === null ? t('common.state.none') : format.number(data.rank)} />
            </Flex>
            {data.events.length ? (
              <SimpleList
                label={t('learning.points.events')}
                items={data.events.slice(0, EVENTS_SHOWN)}
                rowKey={(e) => e.id}
                render={(e) => (
                  <Flex className="list-row" justify="space-between" gap="middle">
                    <span>{t(SOURCE[e.source_type])}</span>
                    <Typography.Text type="secondary">{format.date(e.created_at)}</Typography.Text>
                    <strong>{t('learning.points.plus', { points: e.points })}</strong>
                  </Flex>
                )}
              />
            ) : (
              <EmptyState>{t('learning.points.none')}</EmptyState>
            )}
          </>
        )}
      </QueryView>
    </Card>
  );
}

/** A ranking as a small table (the server returns at most LEADERBOARD_SIZE rows: no pager). */
function RankTable<T extends object>({ label, rows, columns, rowKey }: { label: string; rows: T[]; columns: TableColumnsType<T>; rowKey: keyof T & string }) {
  const { t } = useTranslation();
  return <Table<T> aria-label={label} size="small" columns={columns} dataSource={rows} rowKey={rowKey} pagination={false} locale={{ emptyText: t('learning.leaderboard.empty') }} />;
}

function DepartmentTable({ rows }: { rows: DepartmentStanding[] }) {
  const { t } = useTranslation();
  const format = useFormat();
  const columns: TableColumnsType<DepartmentStanding> = [
    { title: t('learning.leaderboard.rank'), dataIndex: 'rank', width: 80 },
    { title: t('learning.leaderboard.department'), dataIndex: 'department', render: (name: string) => name || t('learning.leaderboard.noDepartment') },
    { title: t('learning.leaderboard.totalPoints'), dataIndex: 'total_points', render: (n: number) => format.number(n) },
    { title: t('learning.leaderboard.members'), dataIndex: 'member_count', render: (n: number) => format.number(n) },
    { title: t('learning.leaderboard.average'), dataIndex: 'average_points', render: (n: number) => format.number(n) },
  ];
  return <RankTable label={t('learning.leaderboard.departments')} rows={rows} columns={columns} rowKey="department" />;
}

function PeopleTable({ rows }: { rows: UserStanding[] }) {
  const { t } = useTranslation();
  const format = useFormat();
  const columns: TableColumnsType<UserStanding> = [
    { title: t('learning.leaderboard.rank'), dataIndex: 'rank', width: 80 },
    { title: t('learning.leaderboard.person'), key: 'name', render: (_, u) => u.full_name || u.username },
    { title: t('learning.leaderboard.department'), dataIndex: 'department', render: (name: string) => name || t('learning.leaderboard.noDepartment') },
    { title: t('learning.leaderboard.points'), dataIndex: 'points', render: (n: number) => format.number(n) },
  ];
  return <RankTable label={t('learning.leaderboard.people')} rows={rows} columns={columns} rowKey="user_id" />;
}
