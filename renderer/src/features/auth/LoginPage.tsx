import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Card, Flex, Form, Input, Typography } from 'antd';
import { ApiError } from '../../api/client';
import { useSession } from '../../app/session';
import { LanguageSwitch } from '../../app/LanguageSwitch';
import { ErrorNotice } from '../../components/states';

interface Credentials {
  username: string;
  password: string;
}

/**
 * The first screen most people see, so it stays light: two required fields validated by antd's own form rather than
 * the zod form pattern of every other screen (zod and react-hook-form load with the first screen that needs them).
 */
export default function LoginPage() {
  const { t } = useTranslation();
  const { login, notice } = useSession();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const required = { required: true, whitespace: true, message: t('common.validation.required') };

  const submit = async ({ username, password }: Credentials) => {
    setError(null);
    setBusy(true);
    try {
      await login(username.trim(), password);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="login-screen">
      <Card className="login-card">
        <Flex justify="space-between" align="center" className="login-top">
          <div className="brand brand-large">
            <span className="brand-mark" aria-hidden>
              T
            </span>
            {t('shell.appName')}
          </div>
          <LanguageSwitch />
        </Flex>
        <Typography.Title level={1} className="login-title">
          {t('auth.title')}
        </Typography.Title>
        <Typography.Paragraph type="secondary">{t('auth.tagline')}</Typography.Paragraph>
        {notice === 'expired' && !error && <Alert type="warning" showIcon title={t('auth.expired')} className="login-notice" />}
        {error instanceof ApiError && error.status === 401 ? (
          <Alert type="error" showIcon role="alert" title={t('auth.wrongCredentials')} className="login-notice" />
        ) : (
          error !== null && <ErrorNotice error={error} />
        )}
        <Form<Credentials> layout="vertical" onFinish={submit} aria-label={t('auth.title')}>
          <Form.Item name="username" label={t('auth.username')} rules={[required]}>
            <Input autoComplete="username" autoFocus />
          </Form.Item>
          <Form.Item name="password" label={t('auth.password')} rules={[{ ...required, whitespace: false }]}>
            <Input.Password autoComplete="current-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={busy}>
            {busy ? t('auth.submitting') : t('auth.submit')}
          </Button>
        </Form>
      </Card>
    </main>
  );
}
