import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Drawer, Progress, Space, Table, Typography, type TableColumnsType } from 'antd';
import type { Scenario, ScenarioStats } from '../../../../contract/roleplay.js';
import { AdminListHeader } from '../../components/admin/AdminList';
import { ActiveToggle } from '../../components/admin/ActiveToggle';
import { StatusTag } from '../../components/StatusTag';
import { ErrorNotice, QueryView } from '../../components/states';
import { roleplayAdminQueries, useSetScenarioStatus } from './admin-queries';
import { ScenarioDialog } from './ScenarioDialog';

type Dialog = { kind: 'new' } | { kind: 'edit'; scenario: Scenario } | null;

/** 管理 → 陪练场景: the scenarios, written and disabled here, and per scenario how often each criterion is met. */
export default function ScenariosAdminPage() {
  const { t } = useTranslation();
  const scenarios = useQuery(roleplayAdminQueries.scenarios());
  const [dialog, setDialog] = useState<Dialog>(null);
  const [statsOf, setStatsOf] = useState<Scenario | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const columns: TableColumnsType<Scenario> = [
    {
      title: t('roleplay.admin.title'),
      key: 'title',
      render: (_, s) => (
        <>
          <Typography.Text strong>{s.title}</Typography.Text>
          <div className="muted">{t('roleplay.persona', { name: s.persona.name, profile: s.persona.profile, risk: s.persona.risk_tolerance })}</div>
        </>
      ),
    },
    { title: t('roleplay.admin.criteria'), key: 'criteria', render: (_, s) => s.criteria.length },
    { title: t('roleplay.admin.passScore'), dataIndex: 'pass_score' },
    { title: t('roleplay.admin.maxTurns'), dataIndex: 'max_turns' },
    { title: t('roleplay.admin.status'), key: 'status', render: (_, s) => <StatusTag tone={s.status === 'active' ? 'success' : undefined}>{t(`roleplay.admin.statuses.${s.status}`)}</StatusTag> },
    {
      title: <span className="visually-hidden">{t('content.actions')}</span>,
      key: 'actions',
      render: (_, s) => <ScenarioActions scenario={s} onEdit={() => setDialog({ kind: 'edit', scenario: s })} onStats={() => setStatsOf(s)} />,
    },
  ];
  return (
    <>
      <AdminListHeader title={t('roleplay.admin.pageTitle')} subtitle={t('roleplay.admin.subtitle')} newLabel={t('roleplay.admin.new')} onNew={() => setDialog({ kind: 'new' })} notice={notice} onCloseNotice={() => setNotice(null)} />
      {scenarios.isError && <ErrorNotice error={scenarios.error} onRetry={() => void scenarios.refetch()} />}
      <Table<Scenario> aria-label={t('roleplay.admin.pageTitle')} columns={columns} dataSource={scenarios.data ?? []} rowKey="id" loading={scenarios.isPending} pagination={false} locale={{ emptyText: t('roleplay.noScenarios') }} />
      {dialog && (
        <ScenarioDialog
          scenario={dialog.kind === 'edit' ? dialog.scenario : undefined}
          onClose={() => setDialog(null)}
          onSaved={(s) => {
            setNotice(t('roleplay.admin.saved', { title: s.title }));
            setDialog(null);
          }}
        />
      )}
      <Drawer open={statsOf !== null} onClose={() => setStatsOf(null)} title={statsOf && t('roleplay.admin.statsTitle', { title: statsOf.title })} width={520} destroyOnHidden>
        {statsOf && <StatsView id={statsOf.id} />}
      </Drawer>
    </>
  );
}

function ScenarioActions({ scenario, onEdit, onStats }: { scenario: Scenario; onEdit(): void; onStats(): void }) {
  const { t } = useTranslation();
  const change = useSetScenarioStatus();
  return (
    <Space wrap>
      <Button size="small" aria-label={`${t('content.edit')} ${scenario.title}`} onClick={onEdit}>
        {t('content.edit')}
      </Button>
      <Button size="small" aria-label={`${t('roleplay.admin.stats')} ${scenario.title}`} onClick={onStats}>
        {t('roleplay.admin.stats')}
      </Button>
      <ActiveToggle
        active={scenario.status === 'active'}
        name={scenario.title}
        confirm={t('roleplay.admin.disableConfirm', { title: scenario.title })}
        offLabel={t('roleplay.admin.disable')}
        onLabel={t('roleplay.admin.enable')}
        onSet={(active) => change.mutate({ id: scenario.id, active })}
        pending={change.isPending}
        error={change.error}
      />
    </Space>
  );
}

/** The rate at which finished sessions met each criterion. */
function StatsView({ id }: { id: number }) {
  const { t } = useTranslation();
  const query = useQuery(roleplayAdminQueries.stats(id));
  return (
    <QueryView query={query}>
      {(stats: ScenarioStats) => (
        <div data-testid="roleplay-stats">
          <Typography.Paragraph>{t('roleplay.admin.statsSummary', { finished: stats.finished, passed: stats.passed })}</Typography.Paragraph>
          {stats.criteria.map((c) => (
            <div key={c.key} className="section">
              <Typography.Text>{c.label}</Typography.Text>
              <Progress percent={Math.round(c.rate * 100)} format={() => t('roleplay.admin.rate', { met: c.met, finished: c.finished })} />
            </div>
          ))}
        </div>
      )}
    </QueryView>
  );
}
