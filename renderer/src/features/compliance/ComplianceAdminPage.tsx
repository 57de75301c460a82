import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { Button, DatePicker, Form, Select, Tabs } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import type { InspectionSummary } from '../../api/types';
import { downloadFile } from '../../api/download';
import { PageHeader } from '../../components/PageHeader';
import { StatusTag } from '../../components/StatusTag';
import { ErrorNotice, Loading, QueryView } from '../../components/states';
import { DataTable } from '../../components/list/DataTable';
import { useListParams } from '../../components/list/useListParams';
import { useFormat } from '../../i18n/format';
import { DepartmentSelect } from '../exam-stats/DepartmentSelect';
import { complianceQueries, type InspectionFilters } from './queries';
import { RuleSetsTab } from './RuleSetsTab';
import { SHIPPED_RULE_KEYS, useRuleLabel } from './rule-names';

// echarts comes with the charts, only when the charts tab is open.
const ComplianceCharts = lazy(() => import('./ComplianceCharts'));

const DAY = 'YYYY-MM-DD';

/** Admins: pass rates by rule, department, product and month; the failed calls (filters, Excel); the rule sets. */
export default function ComplianceAdminPage() {
  const { t, i18n } = useTranslation();
  const format = useFormat();
  const ruleLabel = useRuleLabel();
  const { page, filters, setPage, setFilters } = useListParams({ rule_key: '', department: '', from: '', to: '', view: 'list' });
  const selection: InspectionFilters = { rule_key: filters.rule_key, department: filters.department, from: filters.from, to: filters.to };
  const failed = useQuery({ ...complianceQueries.failed(selection, page), enabled: filters.view === 'list' });
  const stats = useQuery({ ...complianceQueries.stats({ department: filters.department, from: filters.from, to: filters.to }), enabled: filters.view === 'charts' || filters.view === 'list' });
  const ruleKeys = [...new Set([...SHIPPED_RULE_KEYS, ...(stats.data?.by_rule.map((r) => r.key) ?? [])])];
  const exporting = useMutation({
    mutationFn: () => {
      const query = new URLSearchParams(Object.entries({ ...selection, outcome: 'fail' }).filter(([, v]) => v !== ''));
      query.set('lang', i18n.language === 'en' ? 'en' : 'zh-CN');
      query.set('tz_offset', String(-new Date().getTimezoneOffset()));
      return downloadFile(`/compliance/inspections/export?${query.toString()}`);
    },
  });
  const range: [Dayjs, Dayjs] | null = filters.from && filters.to ? [dayjs(filters.from, DAY), dayjs(filters.to, DAY)] : null;
  const columns = [
    { title: t('compliance.admin.columns.time'), dataIndex: 'created_at', render: (v: string) => format.dateTime(v), width: 150 },
    { title: t('compliance.admin.columns.rep'), render: (_: unknown, r: InspectionSummary) => r.user.full_name || r.user.username },
    { title: t('compliance.admin.columns.department'), render: (_: unknown, r: InspectionSummary) => r.user.department || t('compliance.admin.noDepartment') },
    { title: t('compliance.admin.columns.call'), render: (_: unknown, r: InspectionSummary) => <Link to={`/admin/compliance/inspections/${r.id}`}>{r.filename}</Link> },
    { title: t('compliance.admin.columns.product'), render: (_: unknown, r: InspectionSummary) => r.product?.name ?? t('compliance.admin.noProduct') },
    { title: t('compliance.admin.columns.score'), dataIndex: 'score', width: 70 },
    {
      title: t('compliance.admin.columns.failed'),
      render: (_: unknown, r: InspectionSummary) => r.failed_rules.map((key) => <StatusTag key={key} tone="danger">{ruleLabel(key)}</StatusTag>),
    },
  ];
  return (
    <>
      <PageHeader
        title={t('compliance.title')}
        subtitle={t('compliance.subtitle')}
        actions={
          <Button icon={<DownloadOutlined aria-hidden />} loading={exporting.isPending} onClick={() => exporting.mutate()}>
            {t('compliance.admin.export')}
          </Button>
        }
      />
      {exporting.error && <ErrorNotice error={exporting.error} />}
      <Form layout="inline" role="search" aria-label={t('compliance.title')} className="toolbar">
        <Form.Item label={t('compliance.admin.rule')} htmlFor="compliance-rule">
          <Select
            id="compliance-rule"
            className="filter-select"
            value={filters.rule_key}
            onChange={(rule_key: string) => setFilters({ rule_key })}
            options={[{ value: '', label: t('compliance.admin.allRules') }, ...ruleKeys.map((key) => ({ value: key, label: ruleLabel(key) }))]}
          />
        </Form.Item>
        <Form.Item label={t('compliance.admin.department')} htmlFor="compliance-department">
          <DepartmentSelect id="compliance-department" value={filters.department} onChange={(department) => setFilters({ department })} />
        </Form.Item>
        <Form.Item label={t('compliance.admin.period')} htmlFor="compliance-period">
          <DatePicker.RangePicker id={{ start: 'compliance-period' }} value={range} allowClear onChange={(dates) => setFilters({ from: dates?.[0]?.format(DAY) ?? '', to: dates?.[1]?.format(DAY) ?? '' })} />
        </Form.Item>
      </Form>
      <Tabs
        activeKey={filters.view}
        onChange={(view) => setFilters({ view })}
        items={[
          {
            key: 'list',
            label: t('compliance.admin.listTab'),
            children: filters.view === 'list' && <DataTable label={t('compliance.admin.listTab')} query={failed} columns={columns} rowKey={(r) => r.id} onPage={setPage} empty={t('compliance.admin.empty')} />,
          },
          {
            key: 'charts',
            label: t('compliance.admin.chartsTab'),
            children: filters.view === 'charts' && (
              <QueryView query={stats}>
                {(data) => (
                  <Suspense fallback={<Loading />}>
                    <ComplianceCharts stats={data} />
                  </Suspense>
                )}
              </QueryView>
            ),
          },
          { key: 'rules', label: t('compliance.admin.rulesTab'), children: filters.view === 'rules' && <RuleSetsTab /> },
        ]}
      />
    </>
  );
}
