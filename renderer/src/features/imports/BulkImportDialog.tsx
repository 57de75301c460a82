import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Descriptions, Flex, Modal, Progress, Table } from 'antd';
import { useDiscardGuard } from '../../components/form/useDiscardGuard';
import { DownloadOutlined } from '@ant-design/icons';
import { api } from '../../api/client';
import { downloadFile, saveBlob } from '../../api/download';
import { ErrorNotice } from '../../components/states';
import { FilePicker } from '../../components/form/FilePicker';
import { credentialsCsvText } from './credentials-csv';
import type { BulkImportRowError, InitialCredential, QuestionImportReport, UserImportJob, UserImportJobStarted, UserImportReport } from '../../api/types';

type Report = UserImportReport | QuestionImportReport;
export type BulkImportKind = 'users' | 'questions';

const PATHS: Record<BulkImportKind, string> = { users: '/system/users/import', questions: '/exam/questions/import' };
const JOB_POLL_MS = 1000;

const isJobStarted = (answer: Report | UserImportJobStarted): answer is UserImportJobStarted => 'job_id' in answer;

/**
 * A long users import answers 202 {job_id}: polled until it ends. The job is kept once ended and never asked again,
 * since its credentials come in that one answer only.
 */
function useImportJob(jobId: number | null) {
  const [ended, setEnded] = useState<UserImportJob | null>(null);
  const poll = useQuery({
    queryKey: ['imports', 'users', 'job', jobId],
    queryFn: () => api.get<UserImportJob>(`/system/users/import/jobs/${jobId}`),
    enabled: jobId !== null && !ended,
    refetchInterval: JOB_POLL_MS,
    refetchOnWindowFocus: false,
    gcTime: 0,
  });
  useEffect(() => {
    if (poll.data && poll.data.status !== 'running') setEnded(poll.data);
  }, [poll.data]);
  useEffect(() => setEnded(null), [jobId]);
  return { running: jobId !== null && !ended ? (poll.data ?? null) : null, ended, error: poll.error };
}

/** The initial passwords as a CSV file (credentials-csv.ts: formulas neutralised). */
const credentialsCsv = (credentials: InitialCredential[], header: string[]): Blob => new Blob([credentialsCsvText(credentials, header)], { type: 'text/csv;charset=utf-8' });

/**
 * Excel import of users or questions in the product import's two steps: a dry run lists every bad row (nothing is
 * written), then a file without errors is imported, all rows or none. Users' initial passwords are shown once.
 */
export function BulkImportDialog({ kind, invalidates, onClose }: { kind: BulkImportKind; invalidates: QueryKey; onClose(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const send = (dryRun: boolean) => {
    const form = new FormData();
    form.set('file', file!);
    return api.post<Report>(PATHS[kind], form, { query: { dry_run: dryRun || undefined } });
  };
  const check = useMutation({ mutationFn: () => send(true) });
  const [jobId, setJobId] = useState<number | null>(null);
  const run = useMutation({
    mutationFn: () => send(false) as Promise<Report | UserImportJobStarted>,
    onSuccess: (answer) => {
      if (isJobStarted(answer)) setJobId(answer.job_id);
      else void queryClient.invalidateQueries({ queryKey: invalidates });
    },
  });
  const job = useImportJob(jobId);
  useEffect(() => {
    if (job.ended?.status === 'done') void queryClient.invalidateQueries({ queryKey: invalidates });
  }, [job.ended, queryClient, invalidates]);
  const answered = run.data && !isJobStarted(run.data) ? run.data : undefined;
  const jobReport = job.ended?.report ?? undefined;
  // Typed as Report: the conditional would otherwise reduce the union to its common part.
  const done = (answered ?? (job.ended?.status === 'done' ? jobReport : undefined)) as Report | undefined;
  // A job that failed on its rows shows them as the check does; without a report, its reason.
  const report = (job.ended?.status === 'failed' && jobReport ? jobReport : check.data) as Report | undefined;
  const jobFailed = job.ended?.status === 'failed' && !jobReport ? job.ended.error : null;
  const importing = run.isPending || (jobId !== null && !job.ended);
  const choose = (chosen: File | null) => {
    setFile(chosen);
    setJobId(null);
    check.reset();
    run.reset();
  };
  const credentials = done && 'credentials' in done ? done.credentials : [];
  const { requestClose, holder } = useDiscardGuard();
  const cancel = () => requestClose(file !== null && !done, onClose);
  const columns = [
    { title: t('integrity.imports.row'), dataIndex: 'row', width: 70 },
    { title: t('integrity.imports.field'), dataIndex: 'field', width: 110, render: (f?: string) => (f ? t(`integrity.imports.fields.${f}`, { defaultValue: f }) : '—') },
    {
      title: t('integrity.imports.problem'),
      key: 'problem',
      render: (_: unknown, e: BulkImportRowError) => <span title={e.error}>{t(`integrity.imports.problems.${e.code}`, { row: e.other_row ?? '', value: e.value ?? '', defaultValue: t('integrity.imports.problems.invalid') })}</span>,
    },
  ];
  return (
    <Modal open title={t(`integrity.imports.${kind}.title`)} onCancel={cancel} footer={null} width={800} maskClosable={!file}>
      {holder}
      <p>{t(`integrity.imports.${kind}.help`)}</p>
      <Button icon={<DownloadOutlined aria-hidden />} onClick={() => void downloadFile(`${PATHS[kind]}/template`, { name: t(`integrity.imports.${kind}.templateName`) })}>
        {t('integrity.imports.template')}
      </Button>
      {done ? (
        <section aria-label={t('integrity.imports.done')} className="section-top">
          <Alert type="success" showIcon title={t(`integrity.imports.${kind}.imported`, { count: done.imported })} />
          {credentials.length > 0 && (
            <>
              <Alert className="section" type="warning" showIcon title={t('integrity.imports.users.passwordsOnce')} />
              <Table<InitialCredential>
                aria-label={t('integrity.imports.users.passwords')}
                size="small"
                rowKey="username"
                dataSource={credentials}
                pagination={{ pageSize: 8, hideOnSinglePage: true }}
                columns={[
                  { title: t('integrity.imports.fields.username'), dataIndex: 'username' },
                  { title: t('integrity.imports.fields.full_name'), dataIndex: 'full_name' },
                  { title: t('integrity.imports.users.password'), dataIndex: 'password', render: (p: string) => <code>{p}</code> },
                ]}
              />
              <Button
                icon={<DownloadOutlined aria-hidden />}
                onClick={() =>
                  saveBlob(
                    credentialsCsv(credentials, [t('integrity.imports.fields.username'), t('integrity.imports.fields.full_name'), t('integrity.imports.users.password')]),
                    t('integrity.imports.users.passwordsFile'),
                  )
                }
              >
                {t('integrity.imports.users.exportPasswords')}
              </Button>
            </>
          )}
          <Flex justify="flex-end" className="section-top">
            <Button type="primary" onClick={onClose}>
              {t('integrity.imports.close')}
            </Button>
          </Flex>
        </section>
      ) : (
        <>
          <Flex gap="middle" align="start" wrap className="section-top">
            <FilePicker file={file} onChange={choose} chooseLabel={t('integrity.imports.choose')} aria-label={t('integrity.imports.file')} accept=".xlsx" />
            <Button type="primary" disabled={!file} loading={check.isPending} onClick={() => check.mutate()}>
              {t('integrity.imports.check')}
            </Button>
          </Flex>
          {check.error && <ErrorNotice error={check.error} />}
          {report && (
            <section aria-label={t('integrity.imports.report')} className="section-top">
              <Descriptions size="small" column={2} items={(['total', 'valid'] as const).map((k) => ({ key: k, label: t(`integrity.imports.counts.${k}`), children: report[k] }))} />
              {'departments_created' in report && (report.departments_created.length > 0 || report.positions_created.length > 0) && (
                <Alert
                  className="section"
                  type="info"
                  showIcon
                  title={t('integrity.imports.users.willCreate', { departments: report.departments_created.join('、') || '—', positions: report.positions_created.join('、') || '—' })}
                />
              )}
              {report.errors.length > 0 ? (
                <>
                  <Alert className="section" type="error" showIcon title={t('integrity.imports.invalid', { count: report.errors.length })} description={t('integrity.imports.fixAndRetry')} />
                  <Table<BulkImportRowError> aria-label={t('integrity.imports.errors')} size="small" rowKey={(e) => `${e.row}-${e.field ?? ''}-${e.code}`} columns={columns} dataSource={report.errors} pagination={{ pageSize: 8, hideOnSinglePage: true }} />
                </>
              ) : (
                <Alert className="section" type="success" showIcon title={t('integrity.imports.ready', { count: report.valid })} />
              )}
              {run.error && <ErrorNotice error={run.error} />}
              {job.error && <ErrorNotice error={job.error} />}
              {jobFailed !== null && <Alert className="section" type="error" showIcon title={t('integrity.imports.jobFailed')} description={jobFailed} />}
              {jobId !== null && !job.ended && (
                <Progress
                  className="section"
                  percent={job.running && job.running.total > 0 ? Math.floor((job.running.processed / job.running.total) * 100) : 0}
                  status="active"
                  aria-label={t('integrity.imports.progress')}
                  format={() => t('integrity.imports.progressCount', { processed: job.running?.processed ?? 0, total: job.running?.total ?? report.total })}
                />
              )}
              <Flex justify="flex-end" gap="small" className="section-top">
                <Button onClick={cancel}>{t('common.action.cancel')}</Button>
                <Button type="primary" disabled={report.errors.length > 0 || importing} loading={importing} onClick={() => run.mutate()}>
                  {t('integrity.imports.run', { count: report.valid })}
                </Button>
              </Flex>
            </section>
          )}
        </>
      )}
    </Modal>
  );
}
