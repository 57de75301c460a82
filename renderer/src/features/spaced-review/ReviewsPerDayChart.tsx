// Reviews per day as bars (with the right ones), loaded lazily: echarts is never in the first load.
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReviewStats } from '../../api/types';
import { Chart, type ChartOption } from '../exam-stats/Chart';

export default function ReviewsPerDayChart({ days }: { days: ReviewStats['reviews_per_day'] }) {
  const { t } = useTranslation();
  const { option, description } = useMemo(() => {
    const dates = days.map((d) => d.date.slice(5));
    const option: ChartOption = {
      grid: { left: 8, right: 16, top: 36, bottom: 8, containLabel: true },
      tooltip: { trigger: 'axis' },
      legend: { top: 0 },
      xAxis: { type: 'category', data: dates },
      yAxis: { type: 'value', minInterval: 1 },
      series: [
        { type: 'bar', name: t('spacedReview.stats.reviews'), data: days.map((d) => d.reviews), itemStyle: { color: '#1765c6' }, barMaxWidth: 24 },
        { type: 'line', name: t('spacedReview.stats.correct'), data: days.map((d) => d.correct), itemStyle: { color: '#237804' } },
      ],
    };
    const description = days
      .filter((d) => d.reviews)
      .map((d) => t('spacedReview.stats.describe', { date: d.date, reviews: d.reviews }))
      .join(t('spacedReview.stats.separator'));
    return { option, description };
  }, [days, t]);
  return <Chart option={option} label={t('spacedReview.stats.perDay')} description={description || t('spacedReview.stats.empty')} />;
}
