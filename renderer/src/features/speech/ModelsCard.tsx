import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Typography } from 'antd';
import type { AudioModel } from '../../api/types';
import { StatusTag } from '../../components/StatusTag';
import { useFormat } from '../../i18n/format';
import { speechShelf } from './mutations';
import { speechQueries } from './queries';
import { InstallModel } from './InstallModel';
import { ModelShelfCard, useShelfColumns } from './ModelShelfCard';

/** The ggml files found in resources/models (shipped, read only) and DATA_DIR/models (installed here). */
export function ModelsCard() {
  const { t } = useTranslation();
  const format = useFormat();
  const models = useQuery(speechQueries.models());
  const columns = useShelfColumns<AudioModel>(speechShelf, 'speech.models', [
    { title: t('speech.models.name'), dataIndex: 'name', render: (name: string) => <Typography.Text strong>{name}</Typography.Text> },
    { title: t('transcript.admin.kind'), key: 'kind', render: (_, m) => (m.kind ? t(`transcript.admin.kinds.${m.kind}`) : <Typography.Text type="danger">{`${t('transcript.admin.kinds.none')}${m.problem ? `: ${m.problem}` : ''}`}</Typography.Text>) },
    { title: t('speech.models.size'), dataIndex: 'size', render: (size: number) => format.bytes(size) },
    {
      title: t('speech.models.verification'),
      key: 'verification',
      render: (_, m) =>
        m.verification === 'official' ? <StatusTag tone="success">{t('speech.models.official', { name: m.official ?? '' })}</StatusTag> : <StatusTag tone="warning">{t('speech.models.unverified')}</StatusTag>,
    },
  ]);
  return (
    <ModelShelfCard<AudioModel>
      texts="speech.models"
      query={models}
      columns={columns}
      install={
        <InstallModel<AudioModel>
          shelf={speechShelf}
          extension=".bin,.onnx"
          texts="speech.install"
          installed={(m) => t(m.verification === 'official' ? 'speech.install.doneOfficial' : 'speech.install.doneUnverified', { name: m.name, official: m.official ?? '' })}
        />
      }
    />
  );
}
