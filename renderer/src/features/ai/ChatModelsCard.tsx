import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Typography } from 'antd';
import type { ChatModelFile } from '../../api/types';
import { useFormat } from '../../i18n/format';
import { InstallModel } from '../speech/InstallModel';
import { ModelShelfCard, useShelfColumns } from '../speech/ModelShelfCard';
import { aiQueries, chatModelShelf } from './queries';

/** 本机对话模型 (admin): the GGUF files local-model routes can run, described from their own metadata; installed like speech models. */
export function ChatModelsCard() {
  const { t } = useTranslation();
  const format = useFormat();
  const models = useQuery(aiQueries.chatModels());
  const orDash = (v: string | null) => v ?? '—';
  const columns = useShelfColumns<ChatModelFile>(chatModelShelf, 'ai.localModels.models', [
    {
      title: t('ai.localModels.models.name'),
      key: 'name',
      render: (_, m) => (
        <>
          <Typography.Text strong>{m.name}</Typography.Text>
          {m.model_name && <div><Typography.Text type="secondary">{m.model_name}</Typography.Text></div>}
          {m.error && <div><Typography.Text type="danger">{t('ai.localModels.models.unreadable', { error: m.error })}</Typography.Text></div>}
        </>
      ),
    },
    { title: t('ai.localModels.models.size'), dataIndex: 'size', render: (size: number) => format.bytes(size) },
    { title: t('ai.localModels.models.architecture'), dataIndex: 'architecture', render: orDash },
    { title: t('ai.localModels.models.contextLength'), dataIndex: 'context_length', render: (v: number | null) => (v === null ? '—' : format.number(v)) },
    { title: t('ai.localModels.models.quantization'), dataIndex: 'quantization', render: orDash },
  ]);
  return (
    <ModelShelfCard<ChatModelFile>
      texts="ai.localModels.models"
      query={models}
      columns={columns}
      install={
        <InstallModel<ChatModelFile>
          shelf={chatModelShelf}
          extension=".gguf"
          texts="ai.localModels.install"
          installed={(m) => t('ai.localModels.install.done', { name: m.name, architecture: orDash(m.architecture), contextLength: m.context_length === null ? '—' : format.number(m.context_length) })}
        />
      }
    />
  );
}
