import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ParseKeys } from 'i18next';
import { z } from 'zod';
import { Alert, Button, Flex, Input, Modal, Popconfirm, Table, Typography, type TableColumnsType } from 'antd';
import { StatusTag, type Tone } from '../../components/StatusTag';
import { ErrorNotice, QueryView } from '../../components/states';
import { FormItem, ZodForm, useZodForm } from '../../components/form/ZodForm';
import { useFormat } from '../../i18n/format';
import { useDiscardGuard } from '../../components/form/useDiscardGuard';
import type { CreatedDevice, SyncDevice } from '../../api/types';
import { syncQueries } from './queries';
import { useCreateDevice, useRevokeDevice } from './mutations';
import { AdminListHeader } from '../../components/admin/AdminList';

const deviceLabel: Record<SyncDevice['state'], ParseKeys> = { waiting: 'branchSync.devices.state.waiting', expired: 'branchSync.devices.state.expired', enrolled: 'branchSync.devices.state.enrolled', revoked: 'branchSync.devices.state.revoked' };
const deviceTone: Record<SyncDevice['state'], Tone> = { waiting: 'info', expired: 'neutral', enrolled: 'success', revoked: 'danger' };

/** The central server's branch devices: enrolment tokens (shown once), what each last did, flags and revocation. */
export default function DevicesPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const devices = useQuery(syncQueries.devices());
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedDevice | null>(null);
  const columns: TableColumnsType<SyncDevice> = [
    { title: t('branchSync.devices.name'), dataIndex: 'name' },
    {
      title: t('branchSync.devices.stateColumn'),
      key: 'state',
      render: (_, d) => (
        <Flex gap={4} wrap>
          <span data-value={d.state}>
            <StatusTag tone={deviceTone[d.state]}>{t(deviceLabel[d.state])}</StatusTag>
          </span>
          {d.flagged && (
            <span title={d.flag_reason ?? ''}>
              <StatusTag tone="danger">{t('branchSync.devices.flagged')}</StatusTag>
            </span>
          )}
        </Flex>
      ),
    },
    { title: t('branchSync.devices.lastSeen'), key: 'seen', render: (_, d) => (d.last_seen_at ? format.dateTime(d.last_seen_at) : '—') },
    { title: t('branchSync.devices.version'), key: 'version', render: (_, d) => d.app_version ?? '—' },
    { title: t('branchSync.devices.pushed'), key: 'pushed', render: (_, d) => t('branchSync.devices.pushedValue', { accepted: d.pushed_total, refused: d.refused_total }) },
    { title: t('branchSync.devices.lastPull'), key: 'pull', render: (_, d) => (d.last_pull_at ? format.dateTime(d.last_pull_at) : '—') },
    { title: t('branchSync.devices.actions'), key: 'actions', render: (_, d) => (d.revoked ? null : <RevokeButton device={d} />) },
  ];
  return (
    <>
      <AdminListHeader title={t('branchSync.devices.title')} subtitle={t('branchSync.devices.subtitle')} newLabel={t('branchSync.devices.new')} onNew={() => setCreating(true)} />
      {created && (
        <Alert
          className="section"
          type="success"
          showIcon
          closable
          onClose={() => setCreated(null)}
          title={t('branchSync.devices.tokenOnce')}
          description={
            <Typography.Text code copyable aria-label={t('branchSync.devices.token')}>
              {created.enrolment_token}
            </Typography.Text>
          }
        />
      )}
      <QueryView query={devices}>
        {(rows) => <Table<SyncDevice> aria-label={t('branchSync.devices.title')} size="small" columns={columns} dataSource={rows} rowKey="id" pagination={{ hideOnSinglePage: true, pageSize: 50 }} locale={{ emptyText: t('branchSync.devices.empty') }} />}
      </QueryView>
      <NewDeviceDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(device) => {
          setCreating(false);
          setCreated(device);
        }}
      />
    </>
  );
}

function RevokeButton({ device }: { device: SyncDevice }) {
  const { t } = useTranslation();
  const revoke = useRevokeDevice();
  return (
    <>
      <Popconfirm title={t('branchSync.devices.revokeConfirm', { name: device.name })} okText={t('branchSync.devices.revoke')} cancelText={t('common.action.cancel')} onConfirm={() => revoke.mutate(device.id)}>
        <Button size="small" danger loading={revoke.isPending}>
          {t('branchSync.devices.revoke')}
        </Button>
      </Popconfirm>
      {revoke.error && <ErrorNotice error={revoke.error} />}
    </>
  );
}

const newDeviceSchema = z.object({ name: z.string().trim().min(1, 'common.validation.required').max(100) });

function NewDeviceDialog({ open, onClose, onCreated }: { open: boolean; onClose(): void; onCreated(device: CreatedDevice): void }) {
  const { t } = useTranslation();
  const form = useZodForm(newDeviceSchema, { name: '' });
  const create = useCreateDevice();
  const close = () => {
    form.reset({ name: '' });
    create.reset();
    onClose();
  };
  const { requestClose, holder } = useDiscardGuard();
  return (
    <Modal open={open} title={t('branchSync.devices.new')} onCancel={() => requestClose(form.formState.isDirty, close)} footer={null} destroyOnHidden>
      {holder}
      <ZodForm
        form={form}
        aria-label={t('branchSync.devices.new')}
        onSubmit={({ name }) =>
          create.mutate(name, {
            onSuccess: (device) => {
              form.reset({ name: '' });
              create.reset();
              onCreated(device);
            },
          })
        }
      >
        <FormItem control={form.control} name="name" label={t('branchSync.devices.name')} required>
          {(field) => <Input {...field} autoComplete="off" />}
        </FormItem>
        {create.error && <ErrorNotice error={create.error} />}
        <Flex justify="flex-end" gap="small" className="section-top">
          <Button onClick={close}>{t('common.action.cancel')}</Button>
          <Button type="primary" htmlType="submit" loading={create.isPending}>
            {t('branchSync.devices.create')}
          </Button>
        </Flex>
      </ZodForm>
    </Modal>
  );
}
