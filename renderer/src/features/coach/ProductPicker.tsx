import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Select } from 'antd';
import { productQueries } from '../products/queries';

/** Chooses one product by searching the server (name or code), never by loading the whole catalog. */
export function ProductPicker({ value, onChange, id }: { value: number | undefined; onChange(id: number | undefined): void; id?: string }) {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  const found = useQuery(productQueries.search(q));
  const chosen = useQuery({ ...productQueries.detail(value ?? 0), enabled: value !== undefined });
  const options = [...(chosen.data ? [chosen.data] : []), ...(found.data ?? []).filter((p) => p.id !== value)].map((p) => ({ value: p.id, label: p.name }));
  return (
    <Select<number>
      id={id}
      className="product-picker"
      aria-label={t('coach.product')}
      showSearch={{ filterOption: false, onSearch: setQ }}
      allowClear
      placeholder={t('coach.anyProduct')}
      value={value}
      onChange={(next) => onChange(next ?? undefined)}
      loading={found.isFetching}
      options={options}
      notFoundContent={t('coach.noProduct')}
    />
  );
}
