import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Card, Col, Input, Row } from 'antd';
import { PageHeader } from '../../components/PageHeader';
import { ErrorNotice, QueryView } from '../../components/states';
import { FormItem, ZodForm, useZodForm } from '../../components/form/ZodForm';
import type { SystemConfig } from '../../api/types';
import { adminQueries } from './queries';
import { useSaveConfig } from './mutations';

export default function SystemConfigPage() {
  const { t } = useTranslation();
  const config = useQuery(adminQueries.config());
  return (
    <>
      <PageHeader title={t('admin.config.title')} subtitle={t('admin.config.subtitle')} />
      <QueryView query={config}>{(data) => <ConfigForm config={data} />}</QueryView>
    </>
  );
}

const text = (value: SystemConfig[string] | undefined) => (value === undefined || value === null ? '' : String(value));

const schema = z.object({
  llm_base_url: z.string().trim().refine((v) => v === '' || /^https?:\/\/\S+$/i.test(v), 'common.validation.url'),
  llm_model: z.string().trim(),
  // The stored key is only ever shown masked; empty keeps it, typing a new one replaces it.
  llm_api_key: z.string(),
  jwt_expire_minutes: z.string().trim().regex(/^[1-9]\d*$/, 'common.validation.positiveInteger'),
  company_intro_content: z.string(),
});

function ConfigForm({ config }: { config: SystemConfig }) {
  const { t } = useTranslation();
  const save = useSaveConfig();
  const form = useZodForm(schema, {
    llm_base_url: text(config.llm_base_url),
    llm_model: text(config.llm_model),
    llm_api_key: '',
    jwt_expire_minutes: text(config.jwt_expire_minutes),
    company_intro_content: text(config.company_intro_content),
  });
  const storedKey = text(config.llm_api_key);

  const submit = ({ llm_api_key, jwt_expire_minutes, ...rest }: z.output<typeof schema>) =>
    save.mutate({ ...rest, jwt_expire_minutes: Number(jwt_expire_minutes), ...(llm_api_key ? { llm_api_key } : {}) }, { onSuccess: () => form.resetField('llm_api_key') });

  return (
    <Card>
      <ZodForm form={form} onSubmit={submit} aria-label={t('admin.config.title')}>
        <h2 className="card-heading">{t('admin.config.model')}</h2>
        <FormItem control={form.control} name="llm_base_url" label={t('admin.config.baseUrl')}>
          {(field) => <Input {...field} placeholder="https://models.example.com/v1" />}
        </FormItem>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <FormItem control={form.control} name="llm_model" label={t('admin.config.modelName')}>
              {(field) => <Input {...field} />}
            </FormItem>
          </Col>
          <Col xs={24} md={12}>
            <FormItem control={form.control} name="llm_api_key" label={t('admin.config.apiKey')} extra={storedKey && t('admin.config.storedKey', { key: storedKey })}>
              {(field) => <Input.Password {...field} autoComplete="off" placeholder={t(storedKey ? 'admin.config.keepKey' : 'admin.config.noKey')} />}
            </FormItem>
          </Col>
        </Row>
        <h2 className="card-heading">{t('admin.config.sessions')}</h2>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <FormItem control={form.control} name="jwt_expire_minutes" label={t('admin.config.loginMinutes')} required>
              {(field) => <Input {...field} inputMode="numeric" />}
            </FormItem>
          </Col>
        </Row>
        <h2 className="card-heading">{t('admin.config.intro')}</h2>
        <FormItem control={form.control} name="company_intro_content" label={t('admin.config.introLabel')}>
          {(field) => <Input.TextArea {...field} autoSize={{ minRows: 6, maxRows: 16 }} />}
        </FormItem>
        {save.error && <ErrorNotice error={save.error} />}
        {save.isSuccess && <Alert type="success" showIcon title={t('admin.config.saved')} className="section" />}
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {t('admin.config.save')}
        </Button>
      </ZodForm>
    </Card>
  );
}
