import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Drawer, Select, Space, type TableColumnsType } from 'antd';
import type { SessionSummary } from '../../../../contract/roleplay.js';
import { PageHeader } from '../../components/PageHeader';
import { DataTable } from '../../components/list/DataTable';
import { RemoteSelect } from '../../components/form/RemoteSelect';
import { StatusTag } from '../../components/StatusTag';
import { QueryView } from '../../components/states';
import { useFormat } from '../../i18n/format';
import { pickerQueries } from '../assignments/queries';
import { roleplayAdminQueries } from './admin-queries';
import { roleplayQueries } from './queries';
import { SessionReport } from './SessionReport';

/** 管理 → 陪练记录: everyone's sessions, by person and scenario, each report a click away. */
export default function SessionsAdminPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const [filter, setFilter] = useState<{ user_id: number | null; scenario_id: number | null; page: number }>({ user_id: null, scenario_id: null, page: 1 });
  const sessions = useQuery(roleplayAdminQueries.sessions(filter));
  const scenarios = useQuery(roleplayAdminQueries.scenarios());
  const [open, setOpen] = useState<number | null>(null);
  const columns: TableColumnsType<SessionSummary> = [
    { title: t('roleplay.admin.person'), key: 'user', render: (_, s) => s.user.full_name || s.user.username },
    { title: t('roleplay.admin.scenario'), dataIndex: 'scenario_title' },
    { title: t('roleplay.admin.startedAt'), dataIndex: 'created_at', render: (at: string) => format.dateTime(at) },
    { title: t('roleplay.admin.turns'), dataIndex: 'turn_count' },
    {
      title: t('roleplay.report.score'),
      key: 'score',
      render: (_, s) =>
        s.status === 'finished' ? (
          <Space>
            {s.score}
            <StatusTag tone={s.passed ? 'success' : 'danger'}>{t(s.passed ? 'roleplay.report.passed' : 'roleplay.report.failed')}</StatusTag>
          </Space>
        ) : (
          <StatusTag>{t('roleplay.admin.inProgress')}</StatusTag>
        ),
    },
    {
      title: <span className="visually-hidden">{t('content.actions')}</span>,
      key: 'open',
      render: (_, s) => (
        <Button size="small" onClick={() => setOpen(s.id)}>
          {t('roleplay.admin.view')}
        </Button>
      ),
    },
  ];
  return (
    <>
      <PageHeader title={t('roleplay.admin.sessionsTitle')} subtitle={t('roleplay.admin.sessionsSubtitle')} />
      <Space wrap className="section">
        <RemoteSelect search={pickerQueries.people} value={filter.user_id} onChange={(user_id) => setFilter({ ...filter, user_id, page: 1 })} aria-label={t('roleplay.admin.person')} placeholder={t('roleplay.admin.anyPerson')} className="filter-select" />
        <Select<number>
          allowClear
          aria-label={t('roleplay.admin.scenario')}
          placeholder={t('roleplay.admin.anyScenario')}
          className="filter-select"
          value={filter.scenario_id ?? undefined}
          onChange={(id) => setFilter({ ...filter, scenario_id: id ?? null, page: 1 })}
          options={(scenarios.data ?? []).map((s) => ({ value: s.id, label: s.title }))}
        />
      </Space>
      <DataTable label={t('roleplay.admin.sessionsTitle')} query={sessions} columns={columns} rowKey={(s) => s.id} onPage={(page) => setFilter({ ...filter, page })} empty={t('roleplay.admin.noSessions')} />
      <Drawer open={open !== null} onClose={() => setOpen(null)} title={t('roleplay.report.title')} width={640} destroyOnHidden>
        {open !== null && <SessionDetail id={open} />}
      </Drawer>
    </>
  );
}

function SessionDetail({ id }: { id: number }) {
  const query = useQuery(roleplayQueries.session(id));
  return <QueryView query={query}>{(session) => (session.status === 'finished' ? <SessionReport session={session} /> : <>{session.turns.map((turn) => <p key={turn.index}>{turn.text}</p>)}</>)}</QueryView>;
}
