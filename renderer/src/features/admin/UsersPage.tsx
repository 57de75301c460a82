import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Col, Flex, Input, Modal, Popconfirm, Row, Select, Typography, type TableColumnsType } from 'antd';
import { UserAddOutlined } from '@ant-design/icons';
import { useUser } from '../../app/session';
import { PageHeader } from '../../components/PageHeader';
import { StatusTag } from '../../components/StatusTag';
import { ErrorNotice } from '../../components/states';
import { DataTable } from '../../components/list/DataTable';
import { useListParams } from '../../components/list/useListParams';
import { FormItem, ZodForm, useZodForm } from '../../components/form/ZodForm';
import type { Role, User } from '../../api/types';
import { adminQueries } from './queries';
import { useCreateUser, useUpdateUser } from './mutations';

const ROLES: Role[] = ['employee', 'admin'];

export default function UsersPage() {
  const { t } = useTranslation();
  const { page, filters, setPage, setFilters } = useListParams({ q: '' });
  const users = useQuery(adminQueries.users({ ...filters, page }));
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  const columns: TableColumnsType<User> = [
    {
      title: t('admin.users.columns.user'),
      key: 'user',
      render: (_, u) => (
        <>
          <Typography.Text strong>{u.full_name || u.username}</Typography.Text>
          <div>
            <Typography.Text type="secondary">{u.username}</Typography.Text>
          </div>
        </>
      ),
    },
    { title: t('admin.users.columns.department'), dataIndex: 'department', render: (d: string) => d || t('common.state.none') },
    { title: t('admin.users.columns.role'), key: 'role', render: (_, u) => <RoleSelect user={u} /> },
    { title: t('admin.users.columns.status'), key: 'status', render: (_, u) => <StatusTag tone={u.status === 'active' ? 'success' : 'neutral'}>{t(`admin.users.status.${u.status}`)}</StatusTag> },
    { title: <span className="visually-hidden">{t('admin.users.columns.actions')}</span>, key: 'actions', render: (_, u) => <StatusToggle user={u} /> },
  ];
  return (
    <>
      <PageHeader
        title={t('admin.users.title')}
        subtitle={t('admin.users.subtitle')}
        actions={
          <Button type="primary" icon={<UserAddOutlined aria-hidden />} onClick={() => setCreating(true)}>
            {t('admin.users.new')}
          </Button>
        }
      />
      {created && <Alert className="section" type="success" showIcon closable={{ onClose: () => setCreated(null) }} title={t('admin.users.created', { name: created })} />}
      <Flex className="section" role="search" aria-label={t('admin.users.search')}>
        <Input.Search className="catalog-search" aria-label={t('admin.users.search')} placeholder={t('admin.users.searchPlaceholder')} allowClear defaultValue={filters.q} onSearch={(q) => setFilters({ q: q.trim() })} />
      </Flex>
      <DataTable label={t('admin.users.title')} query={users} columns={columns} rowKey={(u) => u.id} onPage={setPage} empty={filters.q ? t('admin.users.noMatch') : t('admin.users.empty')} />
      <NewUserDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(user) => {
          setCreated(user.username);
          setCreating(false);
        }}
      />
    </>
  );
}

function RoleSelect({ user }: { user: User }) {
  const { t } = useTranslation();
  const me = useUser();
  const update = useUpdateUser();
  return (
    <>
      <Select<Role>
        size="small"
        className="role-select"
        aria-label={t('admin.users.roleOf', { name: user.username })}
        value={user.role}
        disabled={user.id === me.id || update.isPending}
        onChange={(role) => update.mutate({ id: user.id, change: { role } })}
        options={ROLES.map((role) => ({ value: role, label: t(`shell.roles.${role}`) }))}
      />
      {update.error && <ErrorNotice error={update.error} />}
    </>
  );
}

function StatusToggle({ user }: { user: User }) {
  const { t } = useTranslation();
  const me = useUser();
  const update = useUpdateUser();
  if (user.id === me.id) return null;
  if (user.status !== 'active')
    return (
      <Button size="small" loading={update.isPending} onClick={() => update.mutate({ id: user.id, change: { status: 'active' } })}>
        {t('admin.users.enable')}
      </Button>
    );
  return (
    <>
      <Popconfirm title={t('admin.users.disableConfirm', { name: user.full_name || user.username })} okText={t('admin.users.disable')} cancelText={t('common.action.cancel')} onConfirm={() => update.mutate({ id: user.id, change: { status: 'disabled' } })}>
        <Button size="small" danger loading={update.isPending}>
          {t('admin.users.disable')}
        </Button>
      </Popconfirm>
      {update.error && <ErrorNotice error={update.error} />}
    </>
  );
}

const newUserSchema = z.object({
  username: z.string().trim().min(1, 'common.validation.required').regex(/^\S+$/, 'common.validation.noSpaces'),
  full_name: z.string().trim(),
  password: z.string().min(6, 'common.validation.passwordTooShort'),
  department: z.string().trim(),
  role: z.enum(['employee', 'admin']),
});

const EMPTY = { username: '', full_name: '', password: '', department: '', role: 'employee' as const };

/** The dialog pattern: a modal around a ZodForm; the mutation's error shows inside, success closes it and the page says so. */
function NewUserDialog({ open, onClose, onCreated }: { open: boolean; onClose(): void; onCreated(user: User): void }) {
  const { t } = useTranslation();
  const form = useZodForm(newUserSchema, EMPTY);
  const create = useCreateUser();
  const clear = () => {
    form.reset(EMPTY);
    create.reset();
  };
  const close = () => {
    clear();
    onClose();
  };
  const submit = (values: z.output<typeof newUserSchema>) =>
    create.mutate(
      { ...values, department: values.department || undefined },
      {
        onSuccess: (user) => {
          clear();
          onCreated(user);
        },
      },
    );
  return (
    <Modal open={open} title={t('admin.users.new')} onCancel={close} footer={null} destroyOnHidden>
      <ZodForm form={form} onSubmit={submit} aria-label={t('admin.users.new')}>
        <Row gutter={16}>
          <Col span={12}>
            <FormItem control={form.control} name="username" label={t('admin.users.username')} required>
              {(field) => <Input {...field} autoComplete="off" />}
            </FormItem>
          </Col>
          <Col span={12}>
            <FormItem control={form.control} name="full_name" label={t('admin.users.fullName')}>
              {(field) => <Input {...field} />}
            </FormItem>
          </Col>
          <Col span={12}>
            <FormItem control={form.control} name="password" label={t('admin.users.password')} required>
              {(field) => <Input.Password {...field} autoComplete="new-password" />}
            </FormItem>
          </Col>
          <Col span={12}>
            <FormItem control={form.control} name="department" label={t('admin.users.department')}>
              {(field) => <Input {...field} />}
            </FormItem>
          </Col>
          <Col span={12}>
            <FormItem control={form.control} name="role" label={t('admin.users.role')}>
              {(field) => <Select {...field} options={ROLES.map((role) => ({ value: role, label: t(`shell.roles.${role}`) }))} />}
            </FormItem>
          </Col>
        </Row>
        {create.error && <ErrorNotice error={create.error} />}
        <Flex justify="flex-end" gap="small" className="section-top">
          <Button onClick={close}>{t('common.action.cancel')}</Button>
          <Button type="primary" htmlType="submit" loading={create.isPending}>
            {t('admin.users.create')}
          </Button>
        </Flex>
      </ZodForm>
    </Modal>
  );
}
