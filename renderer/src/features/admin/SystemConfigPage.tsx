import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Card, Col, Input, Row, Select, Switch } from 'antd';
import { PageHeader } from '../../components/PageHeader';
import { ErrorNotice, QueryView } from '../../components/states';
import { FormItem, ZodForm, useZodForm } from '../../components/form/ZodForm';
import type { SystemConfig } from '../../api/types';
import { adminQueries } from './queries';
import { useSaveConfig } from './mutations';
import { UpdateStatusPanel } from './UpdateStatusPanel';

export default function SystemConfigPage() {
  const { t } = useTranslation();
  const config = useQuery(adminQueries.config());
  return (
    <>
      <PageHeader title={t('admin.config.title')} subtitle={t('admin.config.subtitle')} />
      <QueryView query={config}>{(data) => <ConfigForm config={data} />}</QueryView>
      <UpdateStatusPanel />
    </>
  );
}

const text = (value: SystemConfig[string] | undefined) => (value === undefined || value === null ? '' : String(value));

const count = z.string().trim().regex(/^[1-9]\d*$/, 'common.validation.positiveInteger');
/** The local chat model's numeric parameters (all positive integers). */
const LOCAL_NUMBERS = [
  ['local_llm_concurrency', 'system.config.localConcurrency'],
  ['local_llm_idle_unload_seconds', 'system.config.localIdle'],
  ['local_llm_max_tokens', 'system.config.localMaxTokens'],
  ['local_llm_context_size', 'system.config.localContext'],
] as const;

/** Each parameter's label on this page, and in the list of parameters branches take (the others are named by key). */
const PARAMETER_LABELS = {
  llm_base_url: 'admin.config.baseUrl',
  llm_model: 'admin.config.modelName',
  llm_api_key: 'admin.config.apiKey',
  jwt_expire_minutes: 'admin.config.loginMinutes',
  update_base_url: 'system.config.updateUrl',
  upload_session_ttl_hours: 'system.config.uploadTtl',
  audio_cloud_fallback: 'system.config.cloudFallback',
  audio_local_quality: 'system.config.localQuality',
  coaching_admin_listen: 'system.config.adminListen',
  compliance_second_opinion: 'system.config.secondOpinion',
  llm_local_first: 'system.config.localFirst',
  ...(Object.fromEntries(LOCAL_NUMBERS) as Record<(typeof LOCAL_NUMBERS)[number][0], (typeof LOCAL_NUMBERS)[number][1]>),
} as const;
type ParameterLabel = (typeof PARAMETER_LABELS)[keyof typeof PARAMETER_LABELS];
const labelOf = (key: string): ParameterLabel | undefined => (PARAMETER_LABELS as Record<string, ParameterLabel>)[key];
/** Parameters that never go to branches by choice: the list itself, and the company introduction, which always goes. */
const NOT_CHOSEN = new Set(['branch_parameters', 'company_intro_content']);

const schema = z.object({
  llm_base_url: z.string().trim().refine((v) => v === '' || /^https?:\/\/\S+$/i.test(v), 'common.validation.url'),
  llm_model: z.string().trim(),
  // The stored key is only ever shown masked; empty keeps it, typing a new one replaces it.
  llm_api_key: z.string(),
  jwt_expire_minutes: z.string().trim().regex(/^[1-9]\d*$/, 'common.validation.positiveInteger'),
  update_base_url: z.string().trim().refine((v) => v === '' || /^https?:\/\/[^\s@/]+(\/\S*)?$/i.test(v), 'common.validation.url'),
  upload_session_ttl_hours: z.string().trim().regex(/^[1-9]\d*$/, 'common.validation.positiveInteger'),
  audio_cloud_fallback: z.boolean(),
  audio_local_quality: z.enum(['accurate', 'fast']),
  coaching_admin_listen: z.boolean(),
  compliance_second_opinion: z.boolean(),
  llm_local_first: z.boolean(),
  local_llm_concurrency: count,
  local_llm_idle_unload_seconds: count,
  local_llm_max_tokens: count,
  local_llm_context_size: count,
  branch_parameters: z.array(z.string()),
});

function ConfigForm({ config }: { config: SystemConfig }) {
  const { t } = useTranslation();
  const save = useSaveConfig();
  const form = useZodForm(schema, {
    llm_base_url: text(config.llm_base_url),
    llm_model: text(config.llm_model),
    llm_api_key: '',
    jwt_expire_minutes: text(config.jwt_expire_minutes),
    update_base_url: text(config.update_base_url),
    upload_session_ttl_hours: text(config.upload_session_ttl_hours),
    audio_cloud_fallback: config.audio_cloud_fallback === true,
    audio_local_quality: config.audio_local_quality === 'fast' ? 'fast' : 'accurate',
    coaching_admin_listen: config.coaching_admin_listen === true,
    compliance_second_opinion: config.compliance_second_opinion !== false,
    llm_local_first: config.llm_local_first === true,
    local_llm_concurrency: text(config.local_llm_concurrency),
    local_llm_idle_unload_seconds: text(config.local_llm_idle_unload_seconds),
    local_llm_max_tokens: text(config.local_llm_max_tokens),
    local_llm_context_size: text(config.local_llm_context_size),
    branch_parameters: Array.isArray(config.branch_parameters) ? (config.branch_parameters as string[]) : [],
  });
  const parameterOptions = Object.keys(config)
    .filter((key) => !NOT_CHOSEN.has(key))
    .sort()
    .map((key) => {
      const labelKey = labelOf(key);
      const label = labelKey ? t(labelKey) : key;
      return { value: key, label: label.includes(key) ? label : `${label}（${key}）` };
    });
  const storedKey = text(config.llm_api_key);

  const submit = ({ llm_api_key, jwt_expire_minutes, upload_session_ttl_hours, ...rest }: z.output<typeof schema>) =>
    save.mutate(
      {
        ...rest,
        ...Object.fromEntries(LOCAL_NUMBERS.map(([key]) => [key, Number(rest[key])])),
        jwt_expire_minutes: Number(jwt_expire_minutes),
        upload_session_ttl_hours: Number(upload_session_ttl_hours),
        ...(llm_api_key ? { llm_api_key } : {}),
      },
      { onSuccess: () => form.resetField('llm_api_key') },
    );

  return (
    <Card>
      <ZodForm form={form} onSubmit={submit} aria-label={t('admin.config.title')}>
        <h2 className="card-heading">{t('admin.config.model')}</h2>
        <FormItem control={form.control} name="llm_base_url" label={t(PARAMETER_LABELS.llm_base_url)}>
          {(field) => <Input {...field} placeholder="https://models.example.com/v1" />}
        </FormItem>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <FormItem control={form.control} name="llm_model" label={t(PARAMETER_LABELS.llm_model)}>
              {(field) => <Input {...field} />}
            </FormItem>
          </Col>
          <Col xs={24} md={12}>
            <FormItem control={form.control} name="llm_api_key" label={t(PARAMETER_LABELS.llm_api_key)} extra={storedKey && t('admin.config.storedKey', { key: storedKey })}>
              {(field) => <Input.Password {...field} autoComplete="off" placeholder={t(storedKey ? 'admin.config.keepKey' : 'admin.config.noKey')} />}
            </FormItem>
          </Col>
        </Row>
        <h2 className="card-heading">{t('system.config.localModel')}</h2>
        <FormItem control={form.control} name="llm_local_first" label={t(PARAMETER_LABELS.llm_local_first)} extra={t('system.config.localFirstHint')}>
          {({ value, onChange, ...field }) => <Switch {...field} checked={value} onChange={onChange} />}
        </FormItem>
        <Row gutter={16}>
          {LOCAL_NUMBERS.map(([name]) => (
            <Col xs={24} md={12} key={name}>
              <FormItem control={form.control} name={name} label={t(PARAMETER_LABELS[name])} required>
                {(field) => <Input {...field} inputMode="numeric" />}
              </FormItem>
            </Col>
          ))}
        </Row>
        <h2 className="card-heading">{t('admin.config.sessions')}</h2>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <FormItem control={form.control} name="jwt_expire_minutes" label={t(PARAMETER_LABELS.jwt_expire_minutes)} required>
              {(field) => <Input {...field} inputMode="numeric" />}
            </FormItem>
          </Col>
        </Row>
        <h2 className="card-heading">{t('system.config.updates')}</h2>
        <FormItem control={form.control} name="update_base_url" label={t(PARAMETER_LABELS.update_base_url)} extra={t('system.config.updateUrlHint')}>
          {(field) => <Input {...field} placeholder="https://updates.example.com/trainbench/" />}
        </FormItem>
        <h2 className="card-heading">{t('system.config.audio')}</h2>
        <FormItem control={form.control} name="audio_cloud_fallback" label={t(PARAMETER_LABELS.audio_cloud_fallback)}>
          {({ value, onChange, ...field }) => <Switch {...field} checked={value} onChange={onChange} />}
        </FormItem>
        <FormItem control={form.control} name="audio_local_quality" label={t(PARAMETER_LABELS.audio_local_quality)}>
          {(field) => (
            <Select
              {...field}
              style={{ maxWidth: 240 }}
              options={(['accurate', 'fast'] as const).map((value) => ({ value, label: t(`system.config.quality.${value}`) }))}
            />
          )}
        </FormItem>
        <FormItem control={form.control} name="coaching_admin_listen" label={t(PARAMETER_LABELS.coaching_admin_listen)}>
          {({ value, onChange, ...field }) => <Switch {...field} checked={value} onChange={onChange} />}
        </FormItem>
        <FormItem control={form.control} name="compliance_second_opinion" label={t(PARAMETER_LABELS.compliance_second_opinion)}>
          {({ value, onChange, ...field }) => <Switch {...field} checked={value} onChange={onChange} />}
        </FormItem>
        <h2 className="card-heading">{t('system.config.uploads')}</h2>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <FormItem control={form.control} name="upload_session_ttl_hours" label={t(PARAMETER_LABELS.upload_session_ttl_hours)} required>
              {(field) => <Input {...field} inputMode="numeric" />}
            </FormItem>
          </Col>
        </Row>
        <h2 className="card-heading">{t('system.config.branches')}</h2>
        <FormItem control={form.control} name="branch_parameters" label={t('system.config.branchParameters')} extra={t('system.config.branchParametersHint')}>
          {(field) => <Select {...field} mode="multiple" allowClear options={parameterOptions} placeholder={t('system.config.branchParametersNone')} />}
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
