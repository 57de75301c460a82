import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Typography, type TableColumnsType } from 'antd';
import { ApiOutlined } from '@ant-design/icons';
import { StatusTag } from '../../components/StatusTag';
import { ErrorNotice } from '../../components/states';
import { DataTable } from '../../components/list/DataTable';
import { ListSearch } from '../../components/list/ListSearch';
import { useListParams } from '../../components/list/useListParams';
import { useFormat } from '../../i18n/format';
import type { AiRoute, LocalRouteStatus } from '../../api/types';
import { aiQueries } from './queries';
import { useTestRoute } from './mutations';
import { routeControlColumns } from './RouteControls';
import { RouteDialog } from './RouteDialog';
import { ChatModelsCard } from './ChatModelsCard';
import { AdminListHeader } from '../../components/admin/AdminList';

/**
 * 模型路由 (admin): the chat model endpoints, tried by priority; keys are shown masked only; each can be tested. A local
 * model route says whether its file can run here; the GGUF files themselves are listed and installed below.
 */
export default function ModelRoutesPage() {
  const { t } = useTranslation();
  const { page, filters, setPage, setFilters } = useListParams({ q: '' });
  const routes = useQuery(aiQueries.chatRoutes({ ...filters, page }));
  const [editing, setEditing] = useState<AiRoute | 'new' | null>(null);
  const columns: TableColumnsType<AiRoute> = [
    {
      title: t('ai.routes.name'),
      key: 'name',
      render: (_, r) => (
        <>
          <Typography.Text strong>{r.name}</Typography.Text> {r.is_local && <StatusTag tone="success">{t('ai.routes.local')}</StatusTag>}
          <div>
            <Typography.Text type="secondary">{r.provider === 'local-llama' ? t('ai.routes.localModel') : r.base_url}</Typography.Text>
          </div>
          {r.local_model && <LocalModelStatus status={r.local_model} />}
        </>
      ),
    },
    { title: t('ai.routes.model'), dataIndex: 'model' },
    { title: t('ai.routes.apiKey'), key: 'key', render: (_, r) => (r.has_api_key ? <code data-testid="masked-key">{r.api_key}</code> : t('ai.routes.noKey')) },
    { title: t('ai.routes.priority'), dataIndex: 'priority' },
    ...routeControlColumns<AiRoute>(t, setEditing, (r) => <TestButton route={r} />),
  ];
  return (
    <>
      <AdminListHeader title={t('ai.routes.title')} subtitle={t('ai.routes.subtitle')} newLabel={t('ai.routes.new')} onNew={() => setEditing('new')} />
      <ListSearch label={t('ai.routes.search')} placeholder={t('ai.routes.searchPlaceholder')} value={filters.q} onSearch={(q) => setFilters({ q })} />
      <DataTable label={t('ai.routes.title')} query={routes} columns={columns} rowKey={(r) => r.id} onPage={setPage} empty={filters.q ? t('ai.noMatch') : t('ai.routes.empty')} />
      {editing && <RouteDialog kind="chat" route={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      <ChatModelsCard />
    </>
  );
}

/** Whether a local model route can run here, its memory need, and whether the model is in memory now. */
function LocalModelStatus({ status }: { status: LocalRouteStatus }) {
  const { t } = useTranslation();
  const format = useFormat();
  if (!status.loadable) return <Typography.Text type="danger">{t('ai.routes.localUnavailable', { reason: status.reason ?? '' })}</Typography.Text>;
  return (
    <div>
      <Typography.Text type="secondary">{t('ai.routes.localReady', { memory: status.memory_bytes === null ? '—' : format.bytes(status.memory_bytes) })}</Typography.Text>{' '}
      {status.loaded && <StatusTag tone="info">{t('ai.routes.localLoaded')}</StatusTag>}
    </div>
  );
}

/** Reaches the route's endpoint through the server and says how it went, next to the button. */
function TestButton({ route }: { route: AiRoute }) {
  const { t } = useTranslation();
  const format = useFormat();
  const test = useTestRoute();
  const result = test.data;
  return (
    <div className="route-test">
      <Button size="small" icon={<ApiOutlined aria-hidden />} loading={test.isPending} onClick={() => test.mutate(route.id)} aria-label={t('ai.routes.testOf', { name: route.name })}>
        {t('ai.routes.test')}
      </Button>
      <div role="status" aria-live="polite">
        {result && !test.isPending && (
          <Typography.Text type={result.ok ? 'success' : 'danger'}>
            {result.ok ? t('ai.routes.testOk', { ms: format.number(result.latency_ms) }) : t('ai.routes.testFailed', { error: result.error ?? '' })}
          </Typography.Text>
        )}
      </div>
      {test.error && <ErrorNotice error={test.error} />}
    </div>
  );
}
