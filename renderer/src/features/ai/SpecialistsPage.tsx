import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Space, Typography, type TableColumnsType } from 'antd';
import { ConfirmMutation } from '../../components/ConfirmButton';
import { StatusTag } from '../../components/StatusTag';
import { DataTable } from '../../components/list/DataTable';
import { ListSearch } from '../../components/list/ListSearch';
import { useListParams } from '../../components/list/useListParams';
import type { Specialist } from '../../api/types';
import { aiQueries } from './queries';
import { useDeleteSpecialist } from './mutations';
import { SpecialistDialog } from './SpecialistDialog';
import { AdminListHeader } from '../../components/admin/AdminList';
import { useShownText } from '../../i18n/useShownText';

/** 专家 (admin): the digital worker's specialists: a job description and the skills each may use, in order. */
export default function SpecialistsPage() {
  const { t } = useTranslation();
  const { page, filters, setPage, setFilters } = useListParams({ q: '' });
  const specialists = useQuery(aiQueries.specialists({ ...filters, page }));
  const [editing, setEditing] = useState<Specialist | 'new' | null>(null);
  const shown = useShownText();
  const skills = useQuery(aiQueries.definitions('skill'));
  const skillNames = new Map((skills.data ?? []).map((skill) => [skill.key, shown(skill).name]));
  const skillName = (key: string) => skillNames.get(key) ?? key;
  const columns: TableColumnsType<Specialist> = [
    {
      title: t('ai.specialists.name'),
      key: 'name',
      render: (_, s) => (
        <>
          <Typography.Text strong>{shown(s).name}</Typography.Text>
          <div>
            <Typography.Text type="secondary">{s.key}</Typography.Text>
          </div>
        </>
      ),
    },
    { title: t('ai.state'), key: 'state', render: (_, s) => <StatusTag tone={s.state === 'inactive' ? 'neutral' : 'success'}>{t(`ai.states.${s.state}`)}</StatusTag> },
    { title: t('ai.specialists.skills'), key: 'skills', render: (_, s) => (s.allowed_skills.length ? s.allowed_skills.map(skillName).join(' → ') : t('common.state.none')) },
    {
      title: <span className="visually-hidden">{t('ai.actions')}</span>,
      key: 'actions',
      render: (_, s) => (
        <Space>
          <Button size="small" onClick={() => setEditing(s)} aria-label={t('ai.editOf', { name: shown(s).name })}>
            {t('ai.edit')}
          </Button>
          <DeleteSpecialist specialist={s} />
        </Space>
      ),
    },
  ];
  return (
    <>
      <AdminListHeader title={t('ai.specialists.title')} subtitle={t('ai.specialists.subtitle')} newLabel={t('ai.specialists.new')} onNew={() => setEditing('new')} />
      <ListSearch label={t('ai.specialists.search')} placeholder={t('ai.specialists.searchPlaceholder')} value={filters.q} onSearch={(q) => setFilters({ q })} />
      <DataTable label={t('ai.specialists.title')} query={specialists} columns={columns} rowKey={(s) => s.id} onPage={setPage} empty={filters.q ? t('ai.noMatch') : t('ai.specialists.empty')} />
      {editing && <SpecialistDialog specialist={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </>
  );
}

function DeleteSpecialist({ specialist }: { specialist: Specialist }) {
  const { t } = useTranslation();
  const remove = useDeleteSpecialist();
  const { name } = useShownText()(specialist);
  return (
    <ConfirmMutation mutation={remove} variables={specialist.id} confirm={t('ai.specialists.deleteConfirm', { name })} aria-label={t('ai.deleteOf', { name })}>
      {t('ai.delete')}
    </ConfirmMutation>
  );
}
