import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Form, Select, Space, Typography, type TableColumnsType } from 'antd';
import { ImportOutlined } from '@ant-design/icons';
import { AdminListHeader, FilterBar } from '../../components/admin/AdminList';
import { StatusTag } from '../../components/StatusTag';
import { DataTable } from '../../components/list/DataTable';
import { useListParams } from '../../components/list/useListParams';
import { ActiveToggle } from '../../components/admin/ActiveToggle';
import { StatusFilter } from '../../components/admin/ChoiceFilter';
import { useFormat } from '../../i18n/format';
import type { Product } from '../../api/types';
import { productQueries } from '../products/queries';
import { productAdminQueries, type ProductStatusFilter } from './queries';
import { useSetProductActive } from './mutations';
import { ProductDialog } from './ProductDialog';
import { ImportDialog } from './ImportDialog';

type Dialog = { kind: 'new' } | { kind: 'edit'; product: Product } | { kind: 'import' } | null;

/** Products as admins keep them: every status, server-paged, created, edited, taken off sale, imported. */
export default function ProductsAdminPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const { page, filters, setPage, setFilters } = useListParams({ q: '', status: 'all' as ProductStatusFilter, category: '' });
  const products = useQuery(productAdminQueries.list({ ...filters, page }));
  const categories = useQuery(productQueries.categories());
  const [dialog, setDialog] = useState<Dialog>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const columns: TableColumnsType<Product> = [
    {
      title: t('content.products.name'),
      key: 'name',
      render: (_, p) => (
        <>
          <Typography.Text strong>{p.name}</Typography.Text>
          {p.code && <div className="muted">{p.code}</div>}
        </>
      ),
    },
    { title: t('content.products.category'), dataIndex: 'category', render: (c: string) => c || t('common.state.none') },
    { title: t('content.products.risk'), dataIndex: 'risk_level', render: (r: string) => r || t('common.state.none') },
    { title: t('content.products.commission'), dataIndex: 'commission_rate', render: (c: number | null) => (c === null ? t('common.state.none') : format.percent(c)) },
    { title: t('content.status.label'), dataIndex: 'status', render: (s: Product['status']) => <StatusTag tone={s === 'active' ? 'success' : 'neutral'}>{t(`content.products.status.${s}`)}</StatusTag> },
    {
      title: <span className="visually-hidden">{t('content.actions')}</span>,
      key: 'actions',
      render: (_, p) => (
        <Space>
          <Button size="small" aria-label={`${t('content.edit')} ${p.name}`} onClick={() => setDialog({ kind: 'edit', product: p })}>
            {t('content.edit')}
          </Button>
          <ProductActive product={p} />
        </Space>
      ),
    },
  ];
  const filtered = filters.q || filters.status !== 'all' || filters.category;
  return (
    <>
      <AdminListHeader
        title={t('content.products.title')}
        subtitle={t('content.products.subtitle')}
        newLabel={t('content.products.new')}
        onNew={() => setDialog({ kind: 'new' })}
        extra={
          <Button icon={<ImportOutlined aria-hidden />} onClick={() => setDialog({ kind: 'import' })}>
            {t('content.import.open')}
          </Button>
        }
        notice={notice}
        onCloseNotice={() => setNotice(null)}
      />
      <FilterBar label={t('content.products.search')} id="products-q" q={filters.q} onSearch={(q) => setFilters({ q })} placeholder={t('content.products.searchPlaceholder')}>
        <Form.Item label={t('content.products.category')} htmlFor="products-category">
          <Select
            id="products-category"
            className="filter-select"
            value={filters.category}
            onChange={(category: string) => setFilters({ category })}
            options={[{ value: '', label: t('common.filter.all') }, ...(categories.data ?? []).map((c) => ({ value: c, label: c }))]}
          />
        </Form.Item>
        <StatusFilter<ProductStatusFilter> value={filters.status} all="all" onChange={(status) => setFilters({ status })} statuses={[['active', 'content.products.status.active'], ['inactive', 'content.products.status.inactive']]} />
      </FilterBar>
      <DataTable label={t('content.products.title')} query={products} columns={columns} rowKey={(p) => p.id} onPage={setPage} empty={filtered ? t('content.products.noMatch') : t('content.products.empty')} />
      {dialog?.kind === 'new' && <ProductDialog onClose={() => setDialog(null)} onSaved={(p) => (setDialog(null), setNotice(t('content.products.created', { name: p.name })))} />}
      {dialog?.kind === 'edit' && <ProductDialog product={dialog.product} onClose={() => setDialog(null)} onSaved={(p) => (setDialog(null), setNotice(t('content.products.saved', { name: p.name })))} />}
      {dialog?.kind === 'import' && (
        <ImportDialog onClose={() => setDialog(null)} onImported={(r) => (setDialog(null), setNotice(t('content.import.done', { created: r.created, updated: r.updated })))} />
      )}
    </>
  );
}

function ProductActive({ product }: { product: Product }) {
  const { t } = useTranslation();
  const change = useSetProductActive();
  return (
    <ActiveToggle
      active={product.status === 'active'}
      name={product.name}
      confirm={t('content.products.deactivateConfirm', { name: product.name })}
      offLabel={t('content.products.deactivate')}
      onLabel={t('content.products.reactivate')}
      onSet={(active) => change.mutate({ id: product.id, active })}
      pending={change.isPending}
      error={change.error}
    />
  );
}
