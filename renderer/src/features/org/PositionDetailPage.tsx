import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Card, Space, Switch, Table, Typography, type TableColumnsType } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { PageHeader } from '../../components/PageHeader';
import { NotFound } from '../../components/NotFound';
import { ConfirmMutation } from '../../components/ConfirmButton';
import { EmptyState, ErrorNotice, QueryView } from '../../components/states';
import { StatusTag } from '../../components/StatusTag';
import { useIdParam } from '../../components/useIdParam';
import type { Position, PositionKnowledge } from '../../api/types';
import { orgQueries } from './queries';
import { useDeleteKnowledge, useUpdateKnowledge } from './mutations';
import { PositionDialog } from './PositionDialog';
import { DeletePosition } from './DeletePosition';
import { KnowledgeDialog } from './KnowledgeDialog';
import { KNOWLEDGE_KINDS } from './knowledge-kinds';

/** One position: its name and description, and the knowledge items its holders must (or may) learn. */
export default function PositionDetailPage() {
  const id = useIdParam();
  return id === null ? <NotFound /> : <PositionDetail id={id} />;
}

function PositionDetail({ id }: { id: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const position = useQuery(orgQueries.position(id));
  const [editing, setEditing] = useState(false);
  const [adding, setAdding] = useState(false);
  const back = { to: '/admin/positions', label: t('org.positions.title') };
  return (
    <QueryView query={position}>
      {(p) => (
        <>
          <PageHeader
            back={back}
            title={p.name}
            subtitle={p.description || t('org.positions.subtitle')}
            actions={
              <>
                <Button onClick={() => setEditing(true)}>{t('org.positions.edit')}</Button>
                <DeletePosition position={p} onDeleted={() => navigate(back.to)} />
              </>
            }
          />
          <Card
            size="small"
            title={<h2 className="card-heading">{t('org.knowledge.title')}</h2>}
            extra={
              <Button type="primary" size="small" icon={<PlusOutlined aria-hidden />} onClick={() => setAdding(true)}>
                {t('org.knowledge.add')}
              </Button>
            }
          >
            <Typography.Paragraph type="secondary">{t('org.knowledge.help')}</Typography.Paragraph>
            <KnowledgeTable position={p} />
          </Card>
          {editing && <PositionDialog position={p} onClose={() => setEditing(false)} />}
          {adding && <KnowledgeDialog position={p} onClose={() => setAdding(false)} />}
        </>
      )}
    </QueryView>
  );
}

function KnowledgeTable({ position }: { position: Position }) {
  const { t } = useTranslation();
  const columns: TableColumnsType<PositionKnowledge> = [
    { title: t('org.knowledge.itemTitle'), dataIndex: 'title' },
    { title: t('org.knowledge.kind'), key: 'kind', render: (_, k) => <StatusTag tone="info">{t(KNOWLEDGE_KINDS[k.kind])}</StatusTag> },
    { title: t('org.knowledge.mandatory'), key: 'mandatory', render: (_, k) => <MandatorySwitch item={k} /> },
    { title: <span className="visually-hidden">{t('org.actions')}</span>, key: 'actions', render: (_, k) => <RemoveKnowledge item={k} /> },
  ];
  return (
    <Table<PositionKnowledge>
      aria-label={t('org.knowledge.title')}
      columns={columns}
      dataSource={position.knowledge}
      rowKey={(k) => k.id}
      pagination={false}
      locale={{ emptyText: <EmptyState>{t('org.knowledge.empty')}</EmptyState> }}
    />
  );
}

function MandatorySwitch({ item }: { item: PositionKnowledge }) {
  const { t } = useTranslation();
  const update = useUpdateKnowledge();
  return (
    <Space>
      <Switch
        size="small"
        aria-label={t('org.knowledge.mandatoryOf', { title: item.title })}
        checked={item.is_mandatory}
        loading={update.isPending}
        onChange={(is_mandatory) => update.mutate({ item, change: { is_mandatory } })}
      />
      <span>{t(item.is_mandatory ? 'org.knowledge.required' : 'org.knowledge.optional')}</span>
      {update.error && <ErrorNotice error={update.error} />}
    </Space>
  );
}

function RemoveKnowledge({ item }: { item: PositionKnowledge }) {
  const { t } = useTranslation();
  const remove = useDeleteKnowledge();
  return (
    <ConfirmMutation mutation={remove} variables={item} confirm={t('org.knowledge.removeConfirm', { title: item.title })} aria-label={t('org.knowledge.removeOf', { title: item.title })}>
      {t('common.action.remove')}
    </ConfirmMutation>
  );
}
