import { useEffect, useState } from 'react';
import { useQueries } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Flex, Radio } from 'antd';
import { api } from '../../api/client';
import type { PaperAudience } from '../../api/types';
import type { RemoteOption } from '../../components/form/RemoteSelect';
import { MultiPicker } from '../assignments/MultiPicker';
import { pickerQueries } from '../assignments/queries';
import { orgQueries } from '../org/queries';

/** Names of the departments and people an existing audience holds, for the pickers' chips. */
function useAudienceLabels(audience: PaperAudience | null): { departments: RemoteOption[]; people: RemoteOption[]; ready: boolean } {
  const departments = useQueries({
    queries: (audience?.department_ids ?? []).map((id) => ({ queryKey: ['audience-label', 'department', id], queryFn: () => api.get<{ id: number; name: string }>(`/system/departments/${id}`) })),
  });
  const people = useQueries({
    queries: (audience?.user_ids ?? []).map((id) => ({ queryKey: ['audience-label', 'user', id], queryFn: () => api.get<{ id: number; full_name: string; username: string }>(`/system/users/${id}`) })),
  });
  return {
    departments: departments.flatMap((q) => (q.data ? [{ value: q.data.id, label: q.data.name }] : [])),
    people: people.flatMap((q) => (q.data ? [{ value: q.data.id, label: q.data.full_name || q.data.username }] : [])),
    ready: [...departments, ...people].every((q) => !q.isPending),
  };
}

/** Who a paper is for: everyone (null), or some departments and people (plus, always, the assignees of its tasks). */
export function AudienceField({ id, value, onChange }: { id: string; value: PaperAudience | null; onChange(value: PaperAudience | null): void }) {
  const { t } = useTranslation();
  const [initial] = useState(value);
  const labels = useAudienceLabels(initial);
  const [departments, setDepartments] = useState<RemoteOption[]>([]);
  const [people, setPeople] = useState<RemoteOption[]>([]);
  useEffect(() => {
    if (!labels.ready) return;
    setDepartments(labels.departments);
    setPeople(labels.people);
    // Once, when the names of the stored audience have arrived.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [labels.ready]);
  const limited = value !== null;
  const change = (d: RemoteOption[], p: RemoteOption[]) => {
    setDepartments(d);
    setPeople(p);
    onChange({ department_ids: d.map((o) => o.value), user_ids: p.map((o) => o.value) });
  };
  return (
    <Flex vertical gap="small">
      <Radio.Group
        id={id}
        optionType="button"
        value={limited ? 'limited' : 'everyone'}
        onChange={(e) => (e.target.value === 'everyone' ? onChange(null) : change(departments, people))}
        options={[
          { value: 'everyone', label: t('bank.papers.audience.everyone') },
          { value: 'limited', label: t('bank.papers.audience.limited') },
        ]}
      />
      {limited && (
        <>
          <MultiPicker id={`${id}-departments`} search={orgQueries.departmentOptions} value={departments} onChange={(d) => change(d, people)} placeholder={t('bank.papers.audience.departments')} />
          <MultiPicker id={`${id}-people`} search={pickerQueries.people} value={people} onChange={(p) => change(departments, p)} placeholder={t('bank.papers.audience.people')} />
        </>
      )}
    </Flex>
  );
}
