import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { Alert, Button, Card, Descriptions, Flex, Input, Progress, Typography } from 'antd';
import { SyncOutlined } from '@ant-design/icons';
import { PageHeader } from '../../components/PageHeader';
import { StatusTag } from '../../components/StatusTag';
import { ErrorNotice, QueryView } from '../../components/states';
import { FormItem, ZodForm, useZodForm } from '../../components/form/ZodForm';
import { useFormat } from '../../i18n/format';
import type { SyncStatus } from '../../api/types';
import { stateLabel, stateTone } from './state';
import { syncQueries } from './queries';
import { useEnrol, useSyncNow } from './mutations';


/** A branch laptop's sync with the central server: where it stands, what waits, sync now, and the enrolment. */
export default function SyncPage() {
  const { t } = useTranslation();
  const status = useQuery(syncQueries.status());
  return (
    <>
      <PageHeader title={t('branchSync.title')} subtitle={t('branchSync.subtitle')} />
      <QueryView query={status}>
        {(data) => (
          <Flex vertical gap="middle">
            {data.device_id !== null && <StatusCard status={data} />}
            <EnrolCard enrolled={data.device_id !== null} />
          </Flex>
        )}
      </QueryView>
    </>
  );
}

function StatusCard({ status }: { status: SyncStatus }) {
  const { t } = useTranslation();
  const format = useFormat();
  const syncNow = useSyncNow();
  return (
    <section aria-label={t('branchSync.status.title')}>
      <Card
        title={<h2 className="card-heading">{t('branchSync.status.title')}</h2>}
        extra={
          <Button type="primary" icon={<SyncOutlined aria-hidden spin={status.state === 'running'} />} loading={syncNow.isPending} onClick={() => syncNow.mutate()}>
            {t('branchSync.status.syncNow')}
          </Button>
        }
      >
        <Descriptions column={2} size="small">
          <Descriptions.Item label={t('branchSync.status.state')}>
            <span data-value={status.state}>
              <StatusTag tone={stateTone[status.state]}>{t(stateLabel[status.state])}</StatusTag>
            </span>
          </Descriptions.Item>
          <Descriptions.Item label={t('branchSync.status.central')}>{status.central_url}</Descriptions.Item>
          <Descriptions.Item label={t('branchSync.status.lastSuccess')}>{status.last_success_at ? format.dateTime(status.last_success_at) : t('branchSync.status.never')}</Descriptions.Item>
          <Descriptions.Item label={t('branchSync.status.nextRun')}>{status.next_run_at ? format.dateTime(status.next_run_at) : '—'}</Descriptions.Item>
          <Descriptions.Item label={t('branchSync.status.pendingUp')}>{format.number(status.pending_up)}</Descriptions.Item>
          <Descriptions.Item label={t('branchSync.status.pendingDown')}>{format.number(status.pending_down)}</Descriptions.Item>
        </Descriptions>
        {status.downloads.map((d) => (
          <div key={d.gid} className="section-top">
            <Typography.Text type="secondary">{t('branchSync.status.downloading', { received: format.bytes(d.received), size: format.bytes(d.size) })}</Typography.Text>
            <Progress percent={Math.floor((100 * d.received) / Math.max(1, d.size))} aria-label={t('branchSync.status.downloadProgress')} />
          </div>
        ))}
        {status.last_error && (
          <Alert className="section-top" type={status.state === 'offline' ? 'warning' : 'error'} showIcon title={t(status.state === 'offline' ? 'branchSync.status.offlineText' : 'branchSync.status.errorText')} description={status.last_error} />
        )}
        {syncNow.data && (
          <Alert
            className="section-top"
            type="success"
            showIcon
            title={t('branchSync.status.summary', { pushed: syncNow.data.pushed, pulled: syncNow.data.pulled, files: syncNow.data.files, conflicts: syncNow.data.conflicts })}
          />
        )}
        {syncNow.error && <ErrorNotice error={syncNow.error} />}
      </Card>
    </section>
  );
}

const enrolSchema = z.object({
  central_url: z.string().trim().url('branchSync.enrol.urlInvalid'),
  enrolment_token: z.string().trim().min(1, 'common.validation.required'),
  ca_cert: z.string().trim(),
});

function EnrolCard({ enrolled }: { enrolled: boolean }) {
  const { t } = useTranslation();
  const form = useZodForm(enrolSchema, { central_url: '', enrolment_token: '', ca_cert: '' });
  const enrol = useEnrol();
  return (
    <section aria-label={t('branchSync.enrol.title')}>
      <Card title={<h2 className="card-heading">{t(enrolled ? 'branchSync.enrol.again' : 'branchSync.enrol.title')}</h2>}>
        <Typography.Paragraph type="secondary">{t('branchSync.enrol.text')}</Typography.Paragraph>
        <ZodForm form={form} onSubmit={(values) => enrol.mutate(values, { onSuccess: () => form.reset() })} aria-label={t('branchSync.enrol.title')}>
          <FormItem control={form.control} name="central_url" label={t('branchSync.enrol.url')} extra={t('branchSync.enrol.urlHelp')} required>
            {(field) => <Input {...field} placeholder="https://" autoComplete="off" />}
          </FormItem>
          <FormItem control={form.control} name="enrolment_token" label={t('branchSync.enrol.token')} required>
            {(field) => <Input.Password {...field} autoComplete="off" />}
          </FormItem>
          <FormItem control={form.control} name="ca_cert" label={t('branchSync.enrol.ca')} extra={t('branchSync.enrol.caHelp')}>
            {(field) => <Input.TextArea {...field} rows={3} />}
          </FormItem>
          {enrol.error && <ErrorNotice error={enrol.error} />}
          <Button type="primary" htmlType="submit" loading={enrol.isPending}>
            {t('branchSync.enrol.submit')}
          </Button>
        </ZodForm>
      </Card>
    </section>
  );
}
