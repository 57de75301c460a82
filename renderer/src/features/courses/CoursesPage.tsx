import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { CatalogFilter } from '../../components/CatalogFilter';
import { CatalogGrid } from '../../components/CatalogGrid';
import { useListParams } from '../../components/list/useListParams';
import { humanize, useFormat } from '../../i18n/format';
import { courseQueries } from './queries';

export default function CoursesPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const { page, filters, setPage, setFilters } = useListParams({ category: '', q: '' });
  const categories = useQuery(courseQueries.categories());
  const list = useQuery(courseQueries.list({ ...filters, page }));
  return (
    <>
      <PageHeader title={t('courses.title')} subtitle={t('courses.subtitle')} />
      <CatalogFilter categories={categories.data ?? []} category={filters.category} q={filters.q} onChange={setFilters} />
      <CatalogGrid
        label={t('courses.title')}
        query={list}
        onPage={setPage}
        empty={filters.category || filters.q ? t('courses.noMatch') : t('courses.empty')}
        card={(course) => ({
          key: course.id,
          to: `/courses/${course.id}`,
          eyebrow: humanize(course.category) || t('courses.general'),
          title: course.title,
          meta: [course.duration_minutes ? format.minutes(course.duration_minutes) : '', t('courses.productCount', { count: course.product_ids.length })].filter(Boolean).join(' · '),
          text: course.summary || t('courses.noSummary'),
        })}
      />
    </>
  );
}
