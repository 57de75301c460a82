import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TableColumnsType } from 'antd';
import { DataTable } from '../../components/list/DataTable';
import { ListSearch } from '../../components/list/ListSearch';
import { useListParams } from '../../components/list/useListParams';
import type { Position } from '../../api/types';
import { orgQueries } from './queries';
import { PositionDialog } from './PositionDialog';
import { DeletePosition } from './DeletePosition';
import { AdminListHeader } from '../../components/admin/AdminList';

/** 岗位 (admin): positions and how much mandatory knowledge each one carries; a position opens to its items. */
export default function PositionsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { page, filters, setPage, setFilters } = useListParams({ q: '' });
  const positions = useQuery(orgQueries.positions({ ...filters, page }));
  const [creating, setCreating] = useState(false);
  const columns: TableColumnsType<Position> = [
    { title: t('org.positions.name'), key: 'name', render: (_, p) => <Link to={`/admin/positions/${p.id}`}>{p.name}</Link> },
    { title: t('org.positions.description'), dataIndex: 'description', render: (d: string) => d || t('common.state.none') },
    {
      title: t('org.positions.knowledge'),
      key: 'knowledge',
      render: (_, p) => t('org.positions.knowledgeCount', { count: p.knowledge.length, mandatory: p.knowledge.filter((k) => k.is_mandatory).length }),
    },
    { title: <span className="visually-hidden">{t('org.actions')}</span>, key: 'actions', render: (_, p) => <DeletePosition position={p} /> },
  ];
  return (
    <>
      <AdminListHeader title={t('org.positions.title')} subtitle={t('org.positions.subtitle')} newLabel={t('org.positions.new')} onNew={() => setCreating(true)} />
      <ListSearch label={t('org.positions.search')} placeholder={t('org.positions.name')} value={filters.q} onSearch={(q) => setFilters({ q })} />
      <DataTable label={t('org.positions.title')} query={positions} columns={columns} rowKey={(p) => p.id} onPage={setPage} empty={filters.q ? t('org.noMatch') : t('org.positions.empty')} />
      {creating && <PositionDialog position={null} onClose={() => setCreating(false)} onSaved={(p) => navigate(`/admin/positions/${p.id}`)} />}
    </>
  );
}
