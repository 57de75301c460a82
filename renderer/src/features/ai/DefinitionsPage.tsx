import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Space, Switch, Typography, type TableColumnsType } from 'antd';
import { StatusTag } from '../../components/StatusTag';
import { ErrorNotice } from '../../components/states';
import { DataTable } from '../../components/list/DataTable';
import { ListSearch } from '../../components/list/ListSearch';
import { useListParams } from '../../components/list/useListParams';
import { aiQueries, type Definition, type DefinitionKind } from './queries';
import { useSaveDefinition } from './mutations';
import { DefinitionDialog } from './DefinitionDialog';
import { AdminListHeader } from '../../components/admin/AdminList';
import { useShownText } from '../../i18n/useShownText';

/** The texts of each kind's page, under ai.<area>. */
const AREA = { skill: 'skills', xapp: 'apps' } as const;

/** Skills (what a specialist can run on documents) and apps: the same list, switched on and off rather than deleted. */
export function DefinitionsPage({ kind }: { kind: DefinitionKind }) {
  const { t } = useTranslation();
  const area = AREA[kind];
  const { page, filters, setPage, setFilters } = useListParams({ q: '' });
  const definitions = useQuery(aiQueries.definitionList(kind, { ...filters, page }));
  const [editing, setEditing] = useState<Definition | 'new' | null>(null);
  const shown = useShownText();
  const columns: TableColumnsType<Definition> = [
    {
      title: t('ai.definitions.name'),
      key: 'name',
      render: (_, d) => (
        <>
          <Typography.Text strong>{shown(d).name}</Typography.Text> {d.builtin && <StatusTag tone="info">{t('ai.definitions.builtin')}</StatusTag>}
          <div className="identifier">
            <Typography.Text type="secondary">{d.key}</Typography.Text>
          </div>
        </>
      ),
    },
    { title: t('ai.definitions.description'), key: 'description', render: (_, d) => shown(d).description || t('common.state.none') },
    ...(kind === 'skill' ? [{ title: t('ai.definitions.output'), key: 'output', className: 'column-short', render: (_: unknown, d: Definition) => (d.object_kind === 'skill' ? t(`ai.definitions.outputs.${d.output_kind}`) : null) }] : []),
    { title: t('ai.definitions.exposed'), key: 'exposed', className: 'column-short', render: (_, d) => t(d.exposed_to_user ? 'ai.definitions.yes' : 'ai.definitions.no') },
    { title: t('ai.state'), key: 'state', className: 'column-short', render: (_, d) => <ActiveSwitch kind={kind} definition={d} /> },
    {
      title: <span className="visually-hidden">{t('ai.actions')}</span>,
      key: 'actions',
      render: (_, d) => (
        <Button size="small" onClick={() => setEditing(d)} aria-label={t('ai.editOf', { name: shown(d).name })}>
          {t('ai.edit')}
        </Button>
      ),
    },
  ];
  return (
    <>
      <AdminListHeader title={t(`ai.${area}.title`)} subtitle={t(`ai.${area}.subtitle`)} newLabel={t(`ai.${area}.new`)} onNew={() => setEditing('new')} />
      <ListSearch label={t(`ai.${area}.search`)} placeholder={t(`ai.${area}.searchPlaceholder`)} value={filters.q} onSearch={(q) => setFilters({ q })} />
      <DataTable label={t(`ai.${area}.title`)} query={definitions} columns={columns} rowKey={(d) => d.id} onPage={setPage} empty={filters.q ? t('ai.noMatch') : t(`ai.${area}.empty`)} />
      {editing && <DefinitionDialog kind={kind} title={editing === 'new' ? t(`ai.${area}.new`) : t('ai.editOf', { name: shown(editing).name })} definition={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </>
  );
}

function ActiveSwitch({ kind, definition }: { kind: DefinitionKind; definition: Definition }) {
  const { t } = useTranslation();
  const save = useSaveDefinition(kind);
  const { name } = useShownText()(definition);
  const active = definition.state === 'active';
  return (
    <Space>
      <Switch size="small" aria-label={t('ai.activeOf', { name })} checked={active} loading={save.isPending} onChange={(on) => save.mutate({ id: definition.id, input: { state: on ? 'active' : 'inactive' } })} />
      <span>{t(`ai.states.${definition.state}`)}</span>
      {save.error && <ErrorNotice error={save.error} />}
    </Space>
  );
}
