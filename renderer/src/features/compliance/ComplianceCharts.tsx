import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Card, Col, Row, Statistic } from 'antd';
import type { ComplianceRate, ComplianceStats } from '../../api/types';
import { useFormat } from '../../i18n/format';
import { EmptyState } from '../../components/states';
import { Chart, type ChartOption } from '../exam-stats/Chart';
import { useRuleLabel } from './rule-names';

const BLUE = '#1765c6';

function rateBars(rates: ComplianceRate[], names: string[], seriesName: string): ChartOption {
  return {
    grid: { left: 8, right: 16, top: 16, bottom: 8, containLabel: true },
    tooltip: { trigger: 'axis', valueFormatter: (v) => `${String(v)}%` },
    xAxis: { type: 'category', data: names, axisLabel: { interval: 0, overflow: 'truncate', width: 110, rotate: names.length > 4 ? 30 : 0 } },
    yAxis: { type: 'value', min: 0, max: 100, axisLabel: { formatter: '{value}%' } },
    series: [{ type: 'bar', name: seriesName, data: rates.map((r) => Math.round(r.pass_rate * 1000) / 10), itemStyle: { color: BLUE }, barMaxWidth: 36 }],
  };
}

/** Pass rates by rule, department, product and month (loaded lazily with echarts). */
export default function ComplianceCharts({ stats }: { stats: ComplianceStats }) {
  const { t } = useTranslation();
  const format = useFormat();
  const ruleLabel = useRuleLabel();
  const charts = useMemo(() => {
    const rate = t('compliance.admin.charts.rate');
    const groups: { key: string; title: string; rates: ComplianceRate[]; names: string[] }[] = [
      { key: 'rule', title: t('compliance.admin.charts.byRule'), rates: stats.by_rule, names: stats.by_rule.map((r) => ruleLabel(r.key)) },
      { key: 'department', title: t('compliance.admin.charts.byDepartment'), rates: stats.by_department, names: stats.by_department.map((r) => r.label || t('compliance.admin.noDepartment')) },
      { key: 'product', title: t('compliance.admin.charts.byProduct'), rates: stats.by_product, names: stats.by_product.map((r) => r.label || t('compliance.admin.noProduct')) },
      { key: 'month', title: t('compliance.admin.charts.byMonth'), rates: stats.by_month, names: stats.by_month.map((r) => r.label) },
    ];
    return groups.map((g) => ({
      ...g,
      option: rateBars(g.rates, g.names, rate),
      description: g.names.map((name, i) => `${name}: ${format.percent(g.rates[i]!.pass_rate * 100)}`).join('; '),
    }));
  }, [stats, t, format, ruleLabel]);
  if (!stats.total) return <EmptyState>{t('compliance.admin.noData')}</EmptyState>;
  return (
    <>
      <Row gutter={[16, 16]} className="section">
        <Col xs={8}>
          <Card size="small">
            <Statistic title={t('compliance.admin.summary.total')} value={stats.total} />
          </Card>
        </Col>
        <Col xs={8}>
          <Card size="small">
            <Statistic title={t('compliance.admin.summary.passed')} value={stats.passed} />
          </Card>
        </Col>
        <Col xs={8}>
          <Card size="small">
            <Statistic title={t('compliance.admin.summary.rate')} value={format.percent(stats.pass_rate * 100)} />
          </Card>
        </Col>
      </Row>
      <Row gutter={[16, 16]}>
        {charts.map((c) => (
          <Col key={c.key} xs={24} xl={12}>
            <Card size="small" title={<h3 className="card-heading">{c.title}</h3>}>
              <Chart option={c.option} label={c.title} description={c.description} />
            </Card>
          </Col>
        ))}
      </Row>
    </>
  );
}
