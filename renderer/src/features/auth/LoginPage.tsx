import { useState } from 'react';
import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Input, Typography } from 'antd';
import { ApiError } from '../../api/client';
import { useSession } from '../../app/session';
import { AuthScreen } from './AuthScreen';
import { ErrorNotice } from '../../components/states';
import { FormItem, ZodForm, useZodForm } from '../../components/form/ZodForm';

const schema = z.object({
  username: z.string().trim().min(1, 'common.validation.required'),
  password: z.string().min(1, 'common.validation.required'),
});

export default function LoginPage() {
  const { t } = useTranslation();
  const { login, notice } = useSession();
  const form = useZodForm(schema, { username: '', password: '' });
  const [error, setError] = useState<unknown>(null);
  const busy = form.formState.isSubmitting;

  const submit = async ({ username, password }: z.output<typeof schema>) => {
    setError(null);
    try {
      await login(username, password);
    } catch (err) {
      setError(err);
    }
  };

  return (
    <AuthScreen title={t('auth.title')}>
      <Typography.Paragraph type="secondary">{t('auth.tagline')}</Typography.Paragraph>
      {notice === 'expired' && !error && <Alert type="warning" showIcon title={t('auth.expired')} className="login-notice" />}
      {error instanceof ApiError && error.status === 401 ? (
        <Alert type="error" showIcon role="alert" title={t('auth.wrongCredentials')} className="login-notice" />
      ) : (
        error !== null && <ErrorNotice error={error} />
      )}
      <ZodForm form={form} onSubmit={submit} aria-label={t('auth.title')}>
        <FormItem control={form.control} name="username" label={t('auth.username')} required>
          {(field) => <Input {...field} autoComplete="username" autoFocus />}
        </FormItem>
        <FormItem control={form.control} name="password" label={t('auth.password')} required>
          {(field) => <Input.Password {...field} autoComplete="current-password" />}
        </FormItem>
        <Button type="primary" htmlType="submit" block loading={busy}>
          {busy ? t('auth.submitting') : t('auth.submit')}
        </Button>
      </ZodForm>
    </AuthScreen>
  );
}
