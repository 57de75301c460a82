import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Card, Table, Typography, type TableColumnsType } from 'antd';
import { EmptyState, QueryView } from '../../components/states';
import { ModelActions } from './ModelActions';
import type { ModelShelfUi } from './mutations';

type ShelfModel = { name: string; location: 'resources' | 'data'; sha256: string };
type ShelfTexts = 'speech.models' | 'ai.localModels.models';

/** The columns every model shelf shows around its own: where the file comes from (first), its sha256 and the actions (last). */
export function useShelfColumns<M extends ShelfModel>(shelf: ModelShelfUi, texts: ShelfTexts, own: TableColumnsType<M>): TableColumnsType<M> {
  const { t } = useTranslation();
  return [
    own[0]!,
    { title: t(`${texts}.location`), key: 'location', render: (_, m) => t(m.location === 'data' ? `${texts}.installed` : `${texts}.shipped`) },
    ...own.slice(1),
    {
      title: t(`${texts}.sha256`),
      dataIndex: 'sha256',
      render: (sha: string) => (
        <Typography.Text code copyable={{ text: sha }} title={sha}>
          {sha.slice(0, 12)}…
        </Typography.Text>
      ),
    },
    { title: <span className="visually-hidden">{t(`${texts}.actions`)}</span>, key: 'actions', render: (_, m) => <ModelActions model={m} shelf={shelf} texts={texts} /> },
  ];
}

/** A card listing the model files of one shelf (shipped in resources/models, installed in DATA_DIR/models), with its install form. */
export function ModelShelfCard<M extends ShelfModel>({ texts, query, columns, install }: { texts: ShelfTexts; query: UseQueryResult<M[]>; columns: TableColumnsType<M>; install: ReactNode }) {
  const { t } = useTranslation();
  return (
    <section aria-label={t(`${texts}.title`)} className="section">
      <Card title={<h2 className="card-heading">{t(`${texts}.title`)}</h2>}>
        <Typography.Paragraph type="secondary">{t(`${texts}.intro`)}</Typography.Paragraph>
        <QueryView query={query}>
          {(list) =>
            list.length ? (
              <Table<M> aria-label={t(`${texts}.title`)} size="small" pagination={false} columns={columns} dataSource={list} rowKey={(m) => `${m.location}/${m.name}`} />
            ) : (
              <EmptyState>{t(`${texts}.none`)}</EmptyState>
            )
          }
        </QueryView>
        {install}
      </Card>
    </section>
  );
}
