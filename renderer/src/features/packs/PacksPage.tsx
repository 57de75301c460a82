import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Card, Flex, Space, Table, Typography, type TableColumnsType } from 'antd';
import { CopyOutlined, ExportOutlined } from '@ant-design/icons';
import { FilePicker } from '../../components/form/FilePicker';
import { PageHeader } from '../../components/PageHeader';
import { StatusTag } from '../../components/StatusTag';
import { ErrorNotice, QueryView } from '../../components/states';
import type { PackImportResult, PackItemChange } from '../../api/types';
import { reviewLabel, reviewTone } from '../review/status';
import { packQueries } from './queries';
import { useExportPack, useImportPack } from './mutations';

/**
 * Knowledge packs carry approved knowledge sources and media to installs without a network: this install's
 * signing key (for the branches' trusted keys), export of everything approved, and import of a pack file.
 */
export default function PacksPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('packs.title')} subtitle={t('packs.subtitle')} />
      <Flex vertical gap="middle">
        <SigningKey />
        <ExportPack />
        <ImportPack />
      </Flex>
    </>
  );
}

function SigningKey() {
  const { t } = useTranslation();
  const key = useQuery(packQueries.key());
  const [copied, setCopied] = useState(false);
  return (
    <section aria-label={t('packs.key.title')}>
      <Card title={<h2 className="card-heading">{t('packs.key.title')}</h2>}>
        <Typography.Paragraph type="secondary">{t('packs.key.text')}</Typography.Paragraph>
        <QueryView query={key}>
          {(data) => (
            <Space wrap>
              <Typography.Text code aria-label={t('packs.key.fingerprint')}>
                {data.fingerprint}
              </Typography.Text>
              <Button
                size="small"
                icon={<CopyOutlined aria-hidden />}
                onClick={async () => {
                  await navigator.clipboard.writeText(data.public_key);
                  setCopied(true);
                }}
              >
                {copied ? t('packs.key.copied') : t('packs.key.copy')}
              </Button>
            </Space>
          )}
        </QueryView>
      </Card>
    </section>
  );
}

function ExportPack() {
  const { t } = useTranslation();
  const exporting = useExportPack();
  return (
    <section aria-label={t('packs.export.title')}>
      <Card title={<h2 className="card-heading">{t('packs.export.title')}</h2>}>
        <Typography.Paragraph type="secondary">{t('packs.export.text')}</Typography.Paragraph>
        <Button type="primary" icon={<ExportOutlined aria-hidden />} loading={exporting.isPending} onClick={() => exporting.mutate()}>
          {exporting.isPending ? t('packs.export.preparing') : t('packs.export.start')}
        </Button>
        {exporting.error && <ErrorNotice error={exporting.error} />}
      </Card>
    </section>
  );
}

function ImportPack() {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const importing = useImportPack();
  return (
    <section aria-label={t('packs.import.title')}>
      <Card title={<h2 className="card-heading">{t('packs.import.title')}</h2>}>
        <form
          aria-label={t('packs.import.form')}
          onSubmit={(event) => {
            event.preventDefault();
            if (file) importing.mutate(file);
          }}
        >
          <Space align="start" wrap>
            <FilePicker
              accept=".tgz,application/gzip"
              aria-label={t('packs.import.file')}
              file={file}
              chooseLabel={t('packs.import.choose')}
              onChange={(chosen) => {
                setFile(chosen);
                importing.reset();
              }}
            />
            <Button type="primary" htmlType="submit" disabled={!file} loading={importing.isPending}>
              {importing.isPending ? t('packs.import.importing') : t('packs.import.start')}
            </Button>
          </Space>
        </form>
        {importing.error && <ErrorNotice error={importing.error} />}
        {importing.data && <ImportResult result={importing.data} />}
      </Card>
    </section>
  );
}

interface Row {
  key: string;
  kind: 'source' | 'media';
  name: string;
  status: 'pending' | 'approved' | 'rejected';
  change: PackItemChange;
}

function ImportResult({ result }: { result: PackImportResult }) {
  const { t } = useTranslation();
  const rows: Row[] = [
    ...result.sources.map((s) => ({ key: `s${s.id}`, kind: 'source' as const, name: s.title || s.file_path, status: s.status, change: s.change })),
    ...result.media.map((m) => ({ key: `m${m.id}`, kind: 'media' as const, name: m.filename, status: m.status, change: m.change })),
  ];
  const columns: TableColumnsType<Row> = [
    { title: t('packs.import.columns.item'), dataIndex: 'name' },
    { title: t('packs.import.columns.kind'), key: 'kind', render: (_, r) => t(`packs.import.kind.${r.kind}`) },
    { title: t('packs.import.columns.change'), key: 'change', render: (_, r) => <span data-value={r.change}>{t(`packs.import.change.${r.change}`)}</span> },
    {
      title: t('packs.import.columns.status'),
      key: 'status',
      render: (_, r) => (
        <span data-value={r.status}>
          <StatusTag tone={reviewTone[r.status]}>{t(reviewLabel[r.status])}</StatusTag>
        </span>
      ),
    },
  ];
  return (
    <div className="section-top">
      <Alert
        className="section"
        type={result.trusted ? 'success' : 'warning'}
        showIcon
        title={t(result.trusted ? 'packs.import.trusted' : 'packs.import.untrusted', { fingerprint: result.fingerprint })}
      />
      <Table<Row> aria-label={t('packs.import.items')} size="small" columns={columns} dataSource={rows} rowKey="key" pagination={{ hideOnSinglePage: true, pageSize: 20 }} />
    </div>
  );
}
