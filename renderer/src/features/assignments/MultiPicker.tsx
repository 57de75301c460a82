import { useDeferredValue, useState } from 'react';
import { keepPreviousData, useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { RemoteOption } from '../../components/form/RemoteSelect';

/** Several items found by name on the server as one types (departments, positions, people); chosen ones stay shown. */
export function MultiPicker({ id, search, value, onChange, placeholder }: {
  id: string;
  search: (q: string) => UseQueryOptions<RemoteOption[], Error, RemoteOption[], QueryKey>;
  value: RemoteOption[];
  onChange(value: RemoteOption[]): void;
  placeholder?: string;
}) {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  const deferred = useDeferredValue(q);
  const results = useQuery({ ...search(deferred.trim()), placeholderData: keepPreviousData });
  const options = [...value, ...(results.data ?? []).filter((o) => !value.some((v) => v.value === o.value))];
  return (
    <Select<number[], RemoteOption>
      id={id}
      mode="multiple"
      placeholder={placeholder}
      showSearch={{ filterOption: false, onSearch: setQ }}
      loading={results.isFetching}
      notFoundContent={results.isPending ? t('common.state.loading') : undefined}
      value={value.map((v) => v.value)}
      options={options}
      onChange={(ids) => onChange(ids.map((v) => options.find((o) => o.value === v)!).filter(Boolean))}
      onBlur={() => setQ('')}
    />
  );
}
