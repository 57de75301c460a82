import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { CatalogFilter } from '../../components/CatalogFilter';
import { CatalogGrid } from '../../components/CatalogGrid';
import { useListParams } from '../../components/list/useListParams';
import { humanize } from '../../i18n/format';
import { productQueries } from './queries';

export default function ProductsPage() {
  const { t } = useTranslation();
  const { page, filters, setPage, setFilters } = useListParams({ category: '', q: '' });
  const categories = useQuery(productQueries.categories());
  const list = useQuery(productQueries.list({ ...filters, page }));
  return (
    <>
      <PageHeader title={t('products.title')} subtitle={t('products.subtitle')} />
      <CatalogFilter categories={categories.data ?? []} category={filters.category} q={filters.q} onChange={setFilters} />
      <CatalogGrid
        label={t('products.title')}
        query={list}
        onPage={setPage}
        empty={filters.category || filters.q ? t('products.noMatch') : t('products.empty')}
        card={(product) => ({
          key: product.id,
          to: `/products/${product.id}`,
          eyebrow: humanize(product.category) || t('common.filter.uncategorised'),
          title: product.name,
          meta: product.code && t('products.code', { code: product.code }),
          text: product.summary || t('products.noSummary'),
        })}
      />
    </>
  );
}
