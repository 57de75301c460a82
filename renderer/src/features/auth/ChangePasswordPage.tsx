import { useState } from 'react';
import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Input } from 'antd';
import { api } from '../../api/client';
import type { User } from '../../api/types';
import { useSession } from '../../app/session';
import { AuthScreen } from './AuthScreen';
import { ErrorNotice } from '../../components/states';
import { FormItem, ZodForm, useZodForm } from '../../components/form/ZodForm';

const schema = z
  .object({
    current_password: z.string().min(1, 'common.validation.required'),
    new_password: z.string().min(8, 'integrity.password.tooShort'),
    repeat: z.string().min(1, 'common.validation.required'),
  })
  .refine((p) => p.new_password === p.repeat, { path: ['repeat'], message: 'integrity.password.mismatch' })
  .refine((p) => p.new_password !== p.current_password, { path: ['new_password'], message: 'integrity.password.same' });

/**
 * Shown instead of the app to a user who signed in with an initial password (a bulk import): they choose their own
 * before anything else (the server refuses every other call until then).
 */
export default function ChangePasswordPage() {
  const { t } = useTranslation();
  const { user, update, logout } = useSession();
  const form = useZodForm(schema, { current_password: '', new_password: '', repeat: '' });
  const [error, setError] = useState<unknown>(null);
  const busy = form.formState.isSubmitting;
  const submit = async ({ current_password, new_password }: z.output<typeof schema>) => {
    setError(null);
    try {
      const me = await api.put<User>('/auth/password', { current_password, new_password });
      update({ id: me.id, username: me.username, full_name: me.full_name, role: me.role, must_change_password: false });
    } catch (err) {
      setError(err);
    }
  };
  return (
    <AuthScreen title={t('integrity.password.title')}>
      <Alert type="info" showIcon title={t('integrity.password.why', { name: user?.full_name || user?.username || '' })} className="login-notice" />
      {error !== null && <ErrorNotice error={error} />}
      <ZodForm form={form} onSubmit={submit} aria-label={t('integrity.password.title')}>
        <FormItem control={form.control} name="current_password" label={t('integrity.password.current')} required>
          {(field) => <Input.Password {...field} autoComplete="current-password" autoFocus />}
        </FormItem>
        <FormItem control={form.control} name="new_password" label={t('integrity.password.new')} required extra={t('integrity.password.rule')}>
          {(field) => <Input.Password {...field} autoComplete="new-password" />}
        </FormItem>
        <FormItem control={form.control} name="repeat" label={t('integrity.password.repeat')} required>
          {(field) => <Input.Password {...field} autoComplete="new-password" />}
        </FormItem>
        <Button type="primary" htmlType="submit" block loading={busy}>
          {t('integrity.password.submit')}
        </Button>
        <Button type="link" block onClick={logout}>
          {t('integrity.password.signOut')}
        </Button>
      </ZodForm>
    </AuthScreen>
  );
}
