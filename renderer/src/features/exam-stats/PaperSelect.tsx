import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Select } from 'antd';
import { bankQueries } from '../bank/queries';

/** A formal paper found by name on the server ('' = every paper). */
export function PaperSelect({ id, value, onChange }: { id: string; value: string; onChange(paperId: string): void }) {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  const papers = useQuery(bankQueries.papers({ q, type: 'formal', status: '', page: 1 }));
  const options = [{ value: '', label: t('common.filter.all') }, ...(papers.data?.items ?? []).map((p) => ({ value: String(p.id), label: p.name }))];
  return <Select id={id} className="filter-select" value={value} onChange={onChange} showSearch={{ filterOption: false, onSearch: setQ }} loading={papers.isFetching} options={options} />;
}
