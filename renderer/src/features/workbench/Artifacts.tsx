import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Card, Table } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { RichText } from '../../components/RichText';
import { StatusTag } from '../../components/StatusTag';
import { saveBlob } from '../../api/download';
import type { TableContent, TaskArtifact } from '../../api/types';
import { workbenchQueries } from './queries';
import { artifactFile } from './artifact-files';

function ArtifactTable({ title, content }: { title: string; content: TableContent }) {
  const columns = content.columns.map((name, index) => ({ title: name, key: String(index), render: (_: unknown, row: TableContent['rows'][number]) => (row[index] === null ? '' : String(row[index])) }));
  return <Table aria-label={title} size="small" columns={columns} dataSource={content.rows} rowKey={(row) => content.rows.indexOf(row)} pagination={content.rows.length > 10 ? { pageSize: 10, showSizeChanger: false } : false} scroll={{ x: true }} />;
}

function Artifact({ artifact }: { artifact: TaskArtifact }) {
  const { t } = useTranslation();
  const download = () => {
    const file = artifactFile(artifact);
    saveBlob(file.blob, file.name);
  };
  return (
    <Card
      size="small"
      className="section"
      title={
        <h3 className="card-heading">
          {artifact.title} <StatusTag tone="info">{t(artifact.kind === 'table' ? 'workbench.artifacts.table' : 'workbench.artifacts.report')}</StatusTag>
        </h3>
      }
      extra={
        <Button size="small" icon={<DownloadOutlined aria-hidden />} onClick={download} aria-label={t('workbench.artifacts.downloadOf', { title: artifact.title })}>
          {t('workbench.artifacts.download')}
        </Button>
      }
    >
      {artifact.kind === 'table' ? <ArtifactTable title={artifact.title} content={artifact.content} /> : <RichText content={artifact.content} />}
    </Card>
  );
}

/** What the task's skill runs produced (tables, reports), each shown and downloadable. Nothing when there is none. */
export function Artifacts({ taskId }: { taskId: number }) {
  const { t } = useTranslation();
  const artifacts = useQuery(workbenchQueries.artifacts(taskId));
  if (!artifacts.data?.length) return null;
  return (
    <section aria-label={t('workbench.artifacts.title')} className="section-top">
      <h2 className="card-heading">{t('workbench.artifacts.title')}</h2>
      {artifacts.data.map((a) => (
        <Artifact key={a.id} artifact={a} />
      ))}
    </section>
  );
}
