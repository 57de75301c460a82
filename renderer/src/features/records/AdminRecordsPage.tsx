import { lazy, Suspense } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { Button, DatePicker, Form, Input, Radio, Tabs } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { PageHeader } from '../../components/PageHeader';
import { ErrorNotice, Loading, QueryView } from '../../components/states';
import { useListParams } from '../../components/list/useListParams';
import { recordQueries } from './queries';
import { RecordsTable } from './RecordsTable';
import { statsQueries, type Granularity, type RecordSelection } from '../exam-stats/queries';
import { PaperSelect } from '../exam-stats/PaperSelect';
import { DepartmentSelect } from '../exam-stats/DepartmentSelect';
import { useExportRecords } from '../exam-stats/export';
import { NotTaken } from '../exam-stats/NotTaken';

// echarts comes with the charts, only when the charts tab is open.
const ExamCharts = lazy(() => import('../exam-stats/ExamCharts'));

const DAY = 'YYYY-MM-DD';

/** Everyone's formal exam records: filters shared by the list, the charts and the Excel export (admin). */
export default function AdminRecordsPage() {
  const { t } = useTranslation();
  const { page, filters, setPage, setFilters } = useListParams({ keyword: '', passed: '', paper_id: '', department: '', from: '', to: '', view: 'list', granularity: 'day' });
  // Days are the reader's: from their midnight to the midnight after the last day.
  const selection: RecordSelection = {
    keyword: filters.keyword,
    passed: filters.passed,
    paper_id: filters.paper_id,
    department: filters.department,
    from: filters.from && dayjs(filters.from, DAY).startOf('day').toISOString(),
    to: filters.to && dayjs(filters.to, DAY).add(1, 'day').startOf('day').toISOString(),
  };
  const charts = filters.view === 'charts';
  const records = useQuery({ ...recordQueries.everyone({ page, ...selection }), enabled: !charts });
  const stats = useQuery({ ...statsQueries.stats(selection, filters.granularity as Granularity), enabled: charts });
  const exporting = useExportRecords();
  const range: [Dayjs, Dayjs] | null = filters.from && filters.to ? [dayjs(filters.from, DAY), dayjs(filters.to, DAY)] : null;
  const filtered = Object.values(selection).some(Boolean);
  return (
    <>
      <PageHeader
        title={t('records.everyone.title')}
        subtitle={t('records.everyone.subtitle')}
        actions={
          <Button icon={<DownloadOutlined aria-hidden />} loading={exporting.isPending} onClick={() => exporting.mutate(selection)}>
            {t('examStats.export')}
          </Button>
        }
      />
      {exporting.error && <ErrorNotice error={exporting.error} />}
      <Form layout="inline" role="search" aria-label={t('records.everyone.search')} className="toolbar">
        <Form.Item label={t('records.everyone.keyword')} htmlFor="records-keyword">
          <Input.Search id="records-keyword" allowClear defaultValue={filters.keyword} enterButton={t('common.action.search')} onSearch={(keyword) => setFilters({ keyword: keyword.trim() })} />
        </Form.Item>
        <Form.Item label={t('examStats.paper')} htmlFor="records-paper">
          <PaperSelect id="records-paper" value={filters.paper_id} onChange={(paper_id) => setFilters({ paper_id })} />
        </Form.Item>
        <Form.Item label={t('examStats.department')} htmlFor="records-department">
          <DepartmentSelect id="records-department" value={filters.department} onChange={(department) => setFilters({ department })} />
        </Form.Item>
        <Form.Item label={t('examStats.period')} htmlFor="records-period">
          <DatePicker.RangePicker
            id={{ start: 'records-period' }}
            value={range}
            allowClear
            onChange={(dates) => setFilters({ from: dates?.[0]?.format(DAY) ?? '', to: dates?.[1]?.format(DAY) ?? '' })}
          />
        </Form.Item>
        <Form.Item label={t('records.everyone.result')}>
          <Radio.Group
            aria-label={t('records.everyone.result')}
            optionType="button"
            value={filters.passed}
            onChange={(event) => setFilters({ passed: event.target.value as string })}
            options={[
              { value: '', label: t('common.filter.all') },
              { value: 'true', label: t('exams.result.passed') },
              { value: 'false', label: t('exams.result.failed') },
            ]}
          />
        </Form.Item>
      </Form>
      <Tabs
        activeKey={filters.view}
        onChange={(view) => setFilters({ view })}
        items={[
          {
            key: 'list',
            label: t('examStats.listTab'),
            children: !charts && <RecordsTable query={records} onPage={setPage} showPerson empty={filtered ? t('records.everyone.noMatch') : t('records.everyone.empty')} />,
          },
          {
            key: 'charts',
            label: t('examStats.chartsTab'),
            children: charts && (
              <>
                <Radio.Group
                  aria-label={t('examStats.granularity')}
                  optionType="button"
                  value={filters.granularity}
                  onChange={(event) => setFilters({ granularity: event.target.value as string })}
                  options={[
                    { value: 'day', label: t('examStats.byDay') },
                    { value: 'month', label: t('examStats.byMonth') },
                  ]}
                />
                <QueryView query={stats}>
                  {(data) => (
                    <Suspense fallback={<Loading />}>
                      <ExamCharts stats={data} />
                    </Suspense>
                  )}
                </QueryView>
                {filters.paper_id && <NotTaken paperId={filters.paper_id} department={filters.department} />}
              </>
            ),
          },
        ]}
      />
    </>
  );
}
