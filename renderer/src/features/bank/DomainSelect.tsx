import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Select } from 'antd';
import { bankQueries } from './queries';

/** The bank's domains with their active question counts; `''` stands for every domain when `allLabel` is given. */
export function DomainSelect({ id, value, onChange, allLabel, onBlur }: { id?: string; value: string; onChange(domain: string): void; allLabel?: string; onBlur?(): void }) {
  const { t } = useTranslation();
  const domains = useQuery(bankQueries.domains());
  const options = (domains.data ?? []).map((d) => ({ value: d.domain, label: t('bank.domainWithCount', { domain: d.domain, count: d.active }) }));
  return (
    <Select
      id={id}
      className="filter-select"
      value={value}
      onChange={onChange}
      onBlur={onBlur}
      loading={domains.isPending}
      showSearch={{ optionFilterProp: 'label' }}
      options={allLabel ? [{ value: '', label: allLabel }, ...options] : options}
    />
  );
}
