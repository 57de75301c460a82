import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '../../app/query';
import { useUser } from '../../app/session';
import { PageHeader } from '../../components/PageHeader';
import { Pill } from '../../components/Pill';
import { ErrorNotice, QueryView } from '../../components/states';
import type { Role, User } from '../../api/types';
import { adminKeys, createUser, listUsers, updateUser, type NewUser } from './api';

export function UsersPage() {
  const users = useQuery(adminKeys.users, listUsers);
  return (
    <>
      <PageHeader title="Users" subtitle="Create accounts, change roles, and disable people who have left." />
      <NewUserForm />
      <QueryView query={users}>
        {(list) => (
          <div className="panel panel-flush">
            <table className="table" aria-label="Users">
              <thead>
                <tr>
                  <th>User</th>
                  <th>Department</th>
                  <th>Role</th>
                  <th>Status</th>
                  <th aria-label="Actions" />
                </tr>
              </thead>
              <tbody>
                {list.map((user) => (
                  <UserRow key={user.id} user={user} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryView>
    </>
  );
}

const EMPTY: NewUser = { username: '', password: '', full_name: '', role: 'employee', department: '' };

function NewUserForm() {
  const [form, setForm] = useState<NewUser>(EMPTY);
  const [created, setCreated] = useState<string | null>(null);
  const create = useMutation(createUser, [adminKeys.users]);
  const set = (field: keyof NewUser) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [field]: e.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setCreated(null);
    const user = await create.run({ ...form, department: form.department || undefined });
    if (user) {
      setCreated(user.username);
      setForm(EMPTY);
    }
  };

  return (
    <form className="panel form-grid" onSubmit={submit} aria-label="New user">
      <h2 className="panel-title form-span">New user</h2>
      <label className="field">
        <span>Username</span>
        <input required value={form.username} onChange={set('username')} autoComplete="off" pattern="\S+" title="No spaces" />
      </label>
      <label className="field">
        <span>Full name</span>
        <input value={form.full_name} onChange={set('full_name')} />
      </label>
      <label className="field">
        <span>Password</span>
        <input required type="password" minLength={6} value={form.password} onChange={set('password')} autoComplete="new-password" />
      </label>
      <label className="field">
        <span>Department</span>
        <input value={form.department} onChange={set('department')} />
      </label>
      <label className="field">
        <span>Role</span>
        <select value={form.role} onChange={set('role')}>
          <option value="employee">Employee</option>
          <option value="admin">Administrator</option>
        </select>
      </label>
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={create.busy}>
          Create user
        </button>
      </div>
      {create.error && (
        <div className="form-span">
          <ErrorNotice error={create.error} />
        </div>
      )}
      {created && <div className="form-span notice notice-success">User “{created}” created.</div>}
    </form>
  );
}

function UserRow({ user }: { user: User }) {
  const me = useUser();
  const update = useMutation((change: { role?: Role; status?: User['status'] }) => updateUser(user.id, change), [adminKeys.users]);
  const isMe = user.id === me.id;
  return (
    <tr>
      <td>
        <strong>{user.full_name || user.username}</strong>
        <div className="muted small">{user.username}</div>
        {update.error && <ErrorNotice error={update.error} />}
      </td>
      <td>{user.department || '—'}</td>
      <td>
        <select aria-label={`Role of ${user.username}`} value={user.role} disabled={isMe || update.busy} onChange={(e) => update.run({ role: e.target.value as Role })}>
          <option value="employee">Employee</option>
          <option value="admin">Administrator</option>
        </select>
      </td>
      <td>
        <Pill tone={user.status === 'active' ? 'success' : 'neutral'}>{user.status === 'active' ? 'Active' : 'Disabled'}</Pill>
      </td>
      <td className="cell-actions">
        {!isMe && (
          <button type="button" className="button button-small" disabled={update.busy} onClick={() => update.run({ status: user.status === 'active' ? 'disabled' : 'active' })}>
            {user.status === 'active' ? 'Disable' : 'Enable'}
          </button>
        )}
      </td>
    </tr>
  );
}
