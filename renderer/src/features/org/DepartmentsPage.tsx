import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Space, type TableColumnsType } from 'antd';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorNotice } from '../../components/states';
import { DataTable } from '../../components/list/DataTable';
import { ListSearch } from '../../components/list/ListSearch';
import { useListParams } from '../../components/list/useListParams';
import { NameDialog, type NameValues } from './NameDialog';
import { useFormat } from '../../i18n/format';
import type { Department } from '../../api/types';
import { orgQueries } from './queries';
import { useCreateDepartment, useDeleteDepartment, useUpdateDepartment } from './mutations';
import { AdminListHeader } from '../../components/admin/AdminList';

/** 部门 (admin): the company's departments, created and renamed here; a rename reaches every member. */
export default function DepartmentsPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const { page, filters, setPage, setFilters } = useListParams({ q: '' });
  const departments = useQuery(orgQueries.departments({ ...filters, page }));
  const [editing, setEditing] = useState<Department | 'new' | null>(null);
  // One delete for the page: its failure (a department with members…) shows above the table, not inside a row.
  const remove = useDeleteDepartment();
  const columns: TableColumnsType<Department> = [
    { title: t('org.departments.name'), dataIndex: 'name' },
    { title: t('org.departments.description'), dataIndex: 'description', render: (d: string) => d || t('common.state.none') },
    { title: t('org.departments.members'), dataIndex: 'user_count', render: (n: number) => format.number(n) },
    {
      title: <span className="visually-hidden">{t('org.actions')}</span>,
      key: 'actions',
      render: (_, d) => (
        <Space>
          <Button size="small" onClick={() => setEditing(d)} aria-label={t('org.departments.renameOf', { name: d.name })}>
            {t('org.departments.rename')}
          </Button>
          <ConfirmButton
            loading={remove.isPending && remove.variables === d.id}
            onConfirm={() => remove.mutate(d.id)}
            confirm={t('org.departments.deleteConfirm', { name: d.name })}
            aria-label={t('org.deleteOf', { name: d.name })}
          >
            {t('org.delete')}
          </ConfirmButton>
        </Space>
      ),
    },
  ];
  return (
    <>
      <AdminListHeader title={t('org.departments.title')} subtitle={t('org.departments.subtitle')} newLabel={t('org.departments.new')} onNew={() => setEditing('new')} />
      {remove.error ? <ErrorNotice error={remove.error} /> : null}
      <ListSearch label={t('org.departments.search')} placeholder={t('org.departments.name')} value={filters.q} onSearch={(q) => setFilters({ q })} />
      <DataTable label={t('org.departments.title')} query={departments} columns={columns} rowKey={(d) => d.id} onPage={setPage} empty={filters.q ? t('org.noMatch') : t('org.departments.empty')} />
      {editing && <DepartmentDialog department={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </>
  );
}

/** Creates a department, or renames one (null: a new one). */
function DepartmentDialog({ department, onClose }: { department: Department | null; onClose(): void }) {
  const create = useCreateDepartment();
  const update = useUpdateDepartment();
  const submit = (values: NameValues) => {
    if (department) update.mutate({ id: department.id, ...values }, { onSuccess: onClose });
    else create.mutate(values, { onSuccess: onClose });
  };
  return <NameDialog area="departments" initial={department} mutation={department ? update : create} onSubmit={submit} onClose={onClose} />;
}
