import { useDeferredValue, useState } from 'react';
import { keepPreviousData, queryOptions, useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';

export interface RemoteOption {
  value: number;
  label: string;
}

/** The query of a picker's options for one search text (`optionsQuery(key(q), (signal) => fetch…)`). */
export const optionsQuery = (queryKey: QueryKey, fetch: (signal: AbortSignal) => Promise<RemoteOption[]>) => queryOptions({ queryKey, queryFn: ({ signal }) => fetch(signal) });

interface Props {
  /** A query per search text: the server filters and caps the list (never all of it). */
  search: (q: string) => UseQueryOptions<RemoteOption[], Error, RemoteOption[], QueryKey>;
  value: number | null | undefined;
  /** The chosen item as it should read when it is not among the results of the current search. */
  current?: RemoteOption | null;
  onChange(value: number | null, option: RemoteOption | null): void;
  id?: string;
  'aria-label'?: string;
  placeholder?: string;
  allowClear?: boolean;
  className?: string;
  size?: 'small' | 'middle' | 'large';
}

/** A searchable picker over a server list (departments, positions, products, courses): typing asks the server. */
export function RemoteSelect({ search, value, current, onChange, allowClear = true, ...rest }: Props) {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  const deferred = useDeferredValue(q);
  const results = useQuery({ ...search(deferred.trim()), placeholderData: keepPreviousData });
  const options = [...(results.data ?? [])];
  if (current && !options.some((o) => o.value === current.value)) options.unshift(current);
  return (
    <Select<number | null, RemoteOption>
      {...rest}
      showSearch={{ filterOption: false, onSearch: setQ }}
      allowClear={allowClear}
      loading={results.isFetching}
      notFoundContent={results.isPending ? t('common.state.loading') : undefined}
      value={value ?? null}
      options={options}
      onChange={(next, option) => onChange(next ?? null, (Array.isArray(option) ? option[0] : option) ?? null)}
      onClear={() => setQ('')}
    />
  );
}
