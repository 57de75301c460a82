import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Flex, Input, Radio } from 'antd';
import { humanize } from '../i18n/format';

interface Props {
  categories: string[];
  category: string;
  q: string;
  onChange(patch: { category?: string; q?: string }): void;
}

/** A catalog's filters: one category (or all) and a name/code search, both applied by the server. */
export function CatalogFilter({ categories, category, q, onChange }: Props) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(q);
  useEffect(() => setDraft(q), [q]);
  return (
    <Flex className="section" gap="middle" wrap align="center" justify="space-between">
      <Radio.Group
        aria-label={t('common.filter.category')}
        optionType="button"
        value={category}
        onChange={(event) => onChange({ category: event.target.value as string })}
        options={[{ value: '', label: t('common.filter.all') }, ...categories.map((c) => ({ value: c, label: humanize(c) }))]}
      />
      <Input.Search
        className="catalog-search"
        aria-label={t('common.filter.search')}
        placeholder={t('common.filter.search')}
        allowClear
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        onSearch={(value) => onChange({ q: value.trim() })}
      />
    </Flex>
  );
}
