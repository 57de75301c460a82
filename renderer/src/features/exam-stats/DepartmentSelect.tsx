import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Select } from 'antd';
import { orgQueries } from '../org/queries';

/** A department by name ('' = every department), found on the server as one types. Records know the name only. */
export function DepartmentSelect({ id, value, onChange }: { id: string; value: string; onChange(name: string): void }) {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  const found = useQuery(orgQueries.departmentOptions(q));
  const names = (found.data ?? []).map((d) => d.label);
  if (value && !names.includes(value)) names.unshift(value);
  const options = [{ value: '', label: t('common.filter.all') }, ...names.map((name) => ({ value: name, label: name }))];
  return <Select id={id} className="filter-select" value={value} onChange={onChange} showSearch={{ filterOption: false, onSearch: setQ }} loading={found.isFetching} options={options} />;
}
