import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Form, Input, Radio } from 'antd';
import { PageHeader } from '../../components/PageHeader';
import { useListParams } from '../../components/list/useListParams';
import { recordQueries } from './queries';
import { RecordsTable } from './RecordsTable';

/** Everyone's formal exam records, searchable by person or exam and filterable by result (admin). */
export default function AdminRecordsPage() {
  const { t } = useTranslation();
  const { page, filters, setPage, setFilters } = useListParams({ keyword: '', passed: '' });
  const records = useQuery(recordQueries.everyone({ page, ...filters }));
  return (
    <>
      <PageHeader title={t('records.everyone.title')} subtitle={t('records.everyone.subtitle')} />
      <Form layout="inline" role="search" aria-label={t('records.everyone.search')} className="toolbar">
        <Form.Item label={t('records.everyone.keyword')} htmlFor="records-keyword">
          <Input.Search id="records-keyword" allowClear defaultValue={filters.keyword} enterButton={t('common.action.search')} onSearch={(keyword) => setFilters({ keyword: keyword.trim() })} />
        </Form.Item>
        <Form.Item label={t('records.everyone.result')}>
          <Radio.Group
            aria-label={t('records.everyone.result')}
            optionType="button"
            value={filters.passed}
            onChange={(event) => setFilters({ passed: event.target.value as string })}
            options={[
              { value: '', label: t('common.filter.all') },
              { value: 'true', label: t('exams.result.passed') },
              { value: 'false', label: t('exams.result.failed') },
            ]}
          />
        </Form.Item>
      </Form>
      <RecordsTable query={records} onPage={setPage} showPerson empty={filters.keyword || filters.passed ? t('records.everyone.noMatch') : t('records.everyone.empty')} />
    </>
  );
}
