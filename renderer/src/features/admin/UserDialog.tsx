import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import { Col, Input, Row, Select } from 'antd';
import { FormDialog } from '../../components/form/FormDialog';
import { FormItem, useZodForm } from '../../components/form/ZodForm';
import { RemoteSelect } from '../../components/form/RemoteSelect';
import type { Role, User } from '../../api/types';
import { orgQueries } from '../org/queries';
import { useCreateUser, useUpdateUser } from './mutations';

export const ROLES: Role[] = ['employee', 'admin'];

const id = z.number().int().positive().nullable();
const newUserSchema = z.object({
  username: z.string().trim().min(1, 'common.validation.required').regex(/^\S+$/, 'common.validation.noSpaces'),
  full_name: z.string().trim(),
  password: z.string().min(8, 'common.validation.passwordTooShort'),
  department_id: id,
  position_id: id,
  role: z.enum(['employee', 'admin']),
});
/** Editing: the password only when a new one is typed. */
const editSchema = newUserSchema.omit({ username: true, role: true }).extend({ password: z.union([z.literal(''), newUserSchema.shape.password]) });

type Values = z.input<typeof newUserSchema>;

/** Full name, the department and position pickers (and the role when creating), shared by both dialogs. */
function PersonFields({ form, user, withRole }: { form: ReturnType<typeof useZodForm<typeof newUserSchema>> | ReturnType<typeof useZodForm<typeof editSchema>>; user: User | null; withRole: boolean }) {
  const { t } = useTranslation();
  const control = form.control as ReturnType<typeof useZodForm<typeof newUserSchema>>['control'];
  const position = useQuery({ ...orgQueries.position(user?.position_id ?? 0), enabled: !!user?.position_id });
  return (
    <>
      <Col span={12}>
        <FormItem control={control} name="full_name" label={t('admin.users.fullName')}>
          {(field) => <Input {...field} />}
        </FormItem>
      </Col>
      <Col span={12}>
        <FormItem control={control} name="department_id" label={t('admin.users.department')}>
          {({ id: fieldId, value, onChange }) => (
            <RemoteSelect id={fieldId} search={orgQueries.departmentOptions} value={value} onChange={onChange} current={user?.department_id ? { value: user.department_id, label: user.department } : null} />
          )}
        </FormItem>
      </Col>
      <Col span={12}>
        <FormItem control={control} name="position_id" label={t('admin.users.position')}>
          {({ id: fieldId, value, onChange }) => (
            <RemoteSelect id={fieldId} search={orgQueries.positionOptions} value={value} onChange={onChange} current={position.data ? { value: position.data.id, label: position.data.name } : null} />
          )}
        </FormItem>
      </Col>
      {withRole && (
        <Col span={12}>
          <FormItem control={control} name="role" label={t('admin.users.role')}>
            {(field) => <Select {...field} options={ROLES.map((role) => ({ value: role, label: t(`shell.roles.${role}`) }))} />}
          </FormItem>
        </Col>
      )}
    </>
  );
}

const EMPTY: Values = { username: '', full_name: '', password: '', department_id: null, position_id: null, role: 'employee' };

/** A new account: name, first password, department, position and role. */
export function NewUserDialog({ onClose, onCreated }: { onClose(): void; onCreated(user: User): void }) {
  const { t } = useTranslation();
  const form = useZodForm(newUserSchema, EMPTY);
  const create = useCreateUser();
  const submit = (values: z.output<typeof newUserSchema>) => create.mutate(values, { onSuccess: onCreated });
  return (
    <FormDialog title={t('admin.users.new')} form={form} mutation={create} submitLabel={t('admin.users.create')} onSubmit={submit} onClose={onClose} width={640}>
      <Row gutter={16}>
        <Col span={12}>
          <FormItem control={form.control} name="username" label={t('admin.users.username')} required>
            {(field) => <Input {...field} autoComplete="off" />}
          </FormItem>
        </Col>
        <Col span={12}>
          <FormItem control={form.control} name="password" label={t('admin.users.password')} required>
            {(field) => <Input.Password {...field} autoComplete="new-password" />}
          </FormItem>
        </Col>
        <PersonFields form={form} user={null} withRole />
      </Row>
    </FormDialog>
  );
}

/** Changes a person's name, department, position, or sets a new password. */
export function EditUserDialog({ user, onClose }: { user: User; onClose(): void }) {
  const { t } = useTranslation();
  const form = useZodForm(editSchema, { full_name: user.full_name, password: '', department_id: user.department_id, position_id: user.position_id });
  const update = useUpdateUser();
  const submit = ({ password, ...change }: z.output<typeof editSchema>) => update.mutate({ id: user.id, change: { ...change, ...(password && { password }) } }, { onSuccess: onClose });
  const title = t('admin.users.editOf', { name: user.username });
  return (
    <FormDialog title={title} form={form} mutation={update} submitLabel={t('common.action.save')} onSubmit={submit} onClose={onClose} width={640}>
      <Row gutter={16}>
        <Col span={12}>
          <FormItem control={form.control} name="password" label={t('admin.users.newPassword')} extra={t('admin.users.keepPassword')}>
            {(field) => <Input.Password {...field} autoComplete="new-password" />}
          </FormItem>
        </Col>
        <PersonFields form={form} user={user} withRole={false} />
      </Row>
    </FormDialog>
  );
}
