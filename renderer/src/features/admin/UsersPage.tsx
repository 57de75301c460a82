import { useState } from 'react';
import { ImportOutlined } from '@ant-design/icons';
import { BulkImportDialog } from '../imports/BulkImportDialog';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Flex, Modal, Radio, Select, Space, Typography, type TableColumnsType } from 'antd';
import { UserAddOutlined } from '@ant-design/icons';
import { useUser } from '../../app/session';
import { PageHeader } from '../../components/PageHeader';
import { StatusTag } from '../../components/StatusTag';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorNotice } from '../../components/states';
import { DataTable } from '../../components/list/DataTable';
import { ListSearch } from '../../components/list/ListSearch';
import { useListParams } from '../../components/list/useListParams';
import type { Role, User } from '../../api/types';
import { orgQueries } from '../org/queries';
import { adminKeys, adminQueries } from './queries';
import { useUpdateUser } from './mutations';
import { EditUserDialog, NewUserDialog, ROLES } from './UserDialog';

const STATUSES = ['', 'active', 'disabled'] as const;

export default function UsersPage() {
  const { t } = useTranslation();
  const { page, filters, setPage, setFilters } = useListParams({ q: '', status: '' });
  const users = useQuery(adminQueries.users({ ...filters, page }));
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<User | null>(null);
  const [created, setCreated] = useState<string | null>(null);
  const [importing, setImporting] = useState(false);
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
    { title: t('admin.users.columns.position'), key: 'position', render: (_, u) => <PositionName id={u.position_id} /> },
    { title: t('admin.users.columns.role'), key: 'role', render: (_, u) => <RoleSelect user={u} /> },
    { title: t('admin.users.columns.status'), key: 'status', render: (_, u) => <StatusTag tone={u.status === 'active' ? 'success' : 'neutral'}>{t(`admin.users.status.${u.status}`)}</StatusTag> },
    {
      title: <span className="visually-hidden">{t('admin.users.columns.actions')}</span>,
      key: 'actions',
      render: (_, u) => (
        <Space>
          <Button size="small" onClick={() => setEditing(u)} aria-label={t('admin.users.editOf', { name: u.username })}>
            {t('admin.users.edit')}
          </Button>
          <StatusToggle user={u} />
        </Space>
      ),
    },
  ];
  return (
    <>
      <PageHeader
        title={t('admin.users.title')}
        subtitle={t('admin.users.subtitle')}
        actions={
          <>
            <Button icon={<ImportOutlined aria-hidden />} onClick={() => setImporting(true)}>
              {t('integrity.imports.users.title')}
            </Button>
            <Button type="primary" icon={<UserAddOutlined aria-hidden />} onClick={() => setCreating(true)}>
              {t('admin.users.new')}
            </Button>
          </>
        }
      />
      {importing && <BulkImportDialog kind="users" invalidates={adminKeys.users} onClose={() => setImporting(false)} />}
      {created && <Alert className="section" type="success" showIcon closable={{ onClose: () => setCreated(null) }} title={t('admin.users.created', { name: created })} />}
      <Flex gap="middle" wrap align="center">
        <ListSearch label={t('admin.users.search')} placeholder={t('admin.users.searchPlaceholder')} value={filters.q} onSearch={(q) => setFilters({ q })} />
        <Radio.Group
          className="section"
          aria-label={t('admin.users.statusFilter')}
          optionType="button"
          value={filters.status}
          onChange={(e) => setFilters({ status: e.target.value as string })}
          options={STATUSES.map((s) => ({ value: s, label: s ? t(`admin.users.status.${s}`) : t('common.filter.all') }))}
        />
      </Flex>
      <DataTable label={t('admin.users.title')} query={users} columns={columns} rowKey={(u) => u.id} onPage={setPage} empty={filters.q || filters.status ? t('admin.users.noMatch') : t('admin.users.empty')} />
      {creating && (
        <NewUserDialog
          onClose={() => setCreating(false)}
          onCreated={(user) => {
            setCreated(user.username);
            setCreating(false);
          }}
        />
      )}
      {editing && <EditUserDialog user={editing} onClose={() => setEditing(null)} />}
    </>
  );
}

/** A position's name (cached per position: a page of users asks once per position, side by side). */
function PositionName({ id }: { id: number | null }) {
  const { t } = useTranslation();
  const position = useQuery({ ...orgQueries.position(id ?? 0), enabled: id !== null });
  return <>{id === null ? t('common.state.none') : (position.data?.name ?? '…')}</>;
}

function RoleSelect({ user }: { user: User }) {
  const { t } = useTranslation();
  const me = useUser();
  const update = useUpdateUser();
  const [modal, modalHolder] = Modal.useModal();
  // A role gives or takes away the whole administration: asked first, never changed by a slip of the mouse.
  const change = (role: Role) =>
    void modal.confirm({
      title: t('integrity.roleChange.title', { name: user.full_name || user.username }),
      content: t('integrity.roleChange.text', { from: t(`shell.roles.${user.role}`), to: t(`shell.roles.${role}`) }),
      okText: t('integrity.roleChange.ok'),
      cancelText: t('common.action.cancel'),
      onOk: () => update.mutate({ id: user.id, change: { role } }),
    });
  return (
    <>
      {modalHolder}
      <Select<Role>
        size="small"
        className="role-select"
        aria-label={t('admin.users.roleOf', { name: user.username })}
        value={user.role}
        disabled={user.id === me.id || update.isPending}
        onChange={change}
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
    <ConfirmButton confirm={t('admin.users.disableConfirm', { name: user.full_name || user.username })} onConfirm={() => update.mutate({ id: user.id, change: { status: 'disabled' } })} loading={update.isPending} error={update.error}>
      {t('admin.users.disable')}
    </ConfirmButton>
  );
}
