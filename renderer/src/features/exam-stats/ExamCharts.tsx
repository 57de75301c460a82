import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Card, Col, Row, Statistic } from 'antd';
import type { ExamStats, RecordFigures } from '../../api/types';
import { useFormat } from '../../i18n/format';
import { EmptyState } from '../../components/states';
import { Chart, type ChartOption } from './Chart';

const BLUE = '#1765c6';
const GREEN = '#237804';

/** Bars of pass rate (%) per group, with the record count in the tooltip. */
function passRateBars(names: string[], groups: RecordFigures[], seriesName: string): ChartOption {
  return {
    grid: { left: 8, right: 16, top: 16, bottom: 8, containLabel: true },
    tooltip: { trigger: 'axis', valueFormatter: (v) => `${String(v)}%` },
    xAxis: { type: 'category', data: names, axisLabel: { interval: 0, overflow: 'truncate', width: 120 } },
    yAxis: { type: 'value', min: 0, max: 100, axisLabel: { formatter: '{value}%' } },
    series: [{ type: 'bar', name: seriesName, data: groups.map((g) => Math.round(g.pass_rate * 1000) / 10), itemStyle: { color: BLUE }, barMaxWidth: 36 }],
  };
}

/** The figures of everyone's records (loaded lazily with echarts): summary, pass rates, distribution, trend. */
export default function ExamCharts({ stats }: { stats: ExamStats }) {
  const { t } = useTranslation();
  const format = useFormat();
  const { options, descriptions } = useMemo(() => {
    const rate = t('examStats.passRate');
    const percent = (g: RecordFigures) => format.percent(g.pass_rate * 100);
    const list = (items: [string, string][]) => items.map(([name, value]) => t('examStats.describe.item', { name, value })).join(t('examStats.describe.separator'));
    const descriptions = {
      byPaper: list(stats.by_paper.map((p) => [p.paper_name, percent(p)])),
      byDepartment: list(stats.by_department.map((d) => [d.department || t('examStats.noDepartment'), percent(d)])),
      distribution: list(stats.score_distribution.map((b) => [`${b.from}–${b.to}%`, format.number(b.count)])),
      trend: list(stats.trend.map((p) => [p.period, t('examStats.describe.period', { records: format.number(p.records), rate: percent(p) })])),
    };
    const options = {
      byPaper: passRateBars(stats.by_paper.map((p) => p.paper_name), stats.by_paper, rate),
      byDepartment: passRateBars(stats.by_department.map((d) => d.department || t('examStats.noDepartment')), stats.by_department, rate),
      distribution: {
        grid: { left: 8, right: 16, top: 16, bottom: 8, containLabel: true },
        tooltip: { trigger: 'axis' },
        xAxis: { type: 'category', data: stats.score_distribution.map((b) => `${b.from}–${b.to}%`) },
        yAxis: { type: 'value', minInterval: 1 },
        series: [{ type: 'bar', name: t('examStats.records'), data: stats.score_distribution.map((b) => b.count), itemStyle: { color: BLUE } }],
      } satisfies ChartOption,
      trend: {
        grid: { left: 8, right: 8, top: 36, bottom: 8, containLabel: true },
        tooltip: { trigger: 'axis' },
        legend: { top: 0 },
        xAxis: { type: 'category', data: stats.trend.map((p) => p.period) },
        yAxis: [
          { type: 'value', minInterval: 1, name: t('examStats.records') },
          { type: 'value', min: 0, max: 100, axisLabel: { formatter: '{value}%' } },
        ],
        series: [
          { type: 'bar', name: t('examStats.records'), data: stats.trend.map((p) => p.records), itemStyle: { color: BLUE }, barMaxWidth: 28 },
          { type: 'line', name: rate, yAxisIndex: 1, data: stats.trend.map((p) => Math.round(p.pass_rate * 1000) / 10), itemStyle: { color: GREEN } },
        ],
      } satisfies ChartOption,
    };
    return { options, descriptions };
  }, [stats, t, format]);

  if (stats.overall.records === 0) return <EmptyState>{t('examStats.empty')}</EmptyState>;
  const cards: { key: keyof typeof options; title: string }[] = [
    { key: 'byPaper', title: t('examStats.byPaper') },
    { key: 'byDepartment', title: t('examStats.byDepartment') },
    { key: 'distribution', title: t('examStats.distribution') },
    { key: 'trend', title: t('examStats.trend') },
  ];
  return (
    <section aria-label={t('examStats.title')} className="section">
      <Card className="section">
        <Row gutter={16}>
          <Col span={6}>
            <Statistic title={t('examStats.records')} value={format.number(stats.overall.records)} />
          </Col>
          <Col span={6}>
            <Statistic title={t('examStats.passed')} value={format.number(stats.overall.passed)} />
          </Col>
          <Col span={6}>
            <Statistic title={t('examStats.passRate')} value={format.percent(stats.overall.pass_rate * 100)} />
          </Col>
          <Col span={6}>
            <Statistic title={t('examStats.average')} value={format.percent(stats.overall.average_percent)} />
          </Col>
        </Row>
        <Row gutter={16} className="section-top">
          <Col span={6}>
            <Statistic title={t('assignments.record.people')} value={format.number(stats.overall.people)} />
          </Col>
          <Col span={6}>
            <Statistic title={t('assignments.record.peoplePassed')} value={format.number(stats.overall.people_passed)} />
          </Col>
          <Col span={6}>
            <Statistic title={t('assignments.record.peoplePassRate')} value={format.percent(stats.overall.people_pass_rate * 100)} />
          </Col>
        </Row>
      </Card>
      <Row gutter={[16, 16]}>
        {cards.map((card) => (
          <Col key={card.key} xs={24} xl={12}>
            <Card title={<h2 className="card-heading">{card.title}</h2>}>
              <Chart option={options[card.key]} label={card.title} description={descriptions[card.key]} />
            </Card>
          </Col>
        ))}
      </Row>
    </section>
  );
}
