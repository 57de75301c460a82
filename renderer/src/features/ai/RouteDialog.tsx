import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Col, Input, InputNumber, Radio, Row, Select, Switch } from 'antd';
import { FormDialog } from '../../components/form/FormDialog';
import { FormItem, useZodForm } from '../../components/form/ZodForm';
import type { AiRoute, AiRouteKind } from '../../api/types';
import { speechQueries } from '../speech/queries';
import { useCreateRoute, useUpdateRoute } from './mutations';
import { aiQueries } from './queries';

const timeout = z.number().int('common.validation.positiveInteger').min(100, 'ai.routes.timeoutRange').max(600_000, 'ai.routes.timeoutRange').nullable();
const schema = z
  .object({
    name: z.string().trim().min(1, 'common.validation.required').max(100, 'ai.tooLong'),
    /** A remote OpenAI-compatible service, or a model file run on this computer (no URL, no key). */
    provider: z.enum(['openai-compatible', 'local-llama', 'local-whisper']),
    base_url: z.string().trim(),
    model: z.string().trim().min(1, 'common.validation.required').max(200, 'ai.tooLong'),
    // Never shown: empty keeps the stored key (when editing), typing replaces it.
    api_key: z.string().max(500, 'ai.tooLong'),
    priority: z.number('common.validation.required').int('common.validation.positiveInteger').min(0, 'common.validation.positiveInteger'),
    enabled: z.boolean(),
    connect_timeout_ms: timeout,
    idle_timeout_ms: timeout,
  })
  .refine((v) => v.provider !== 'openai-compatible' || /^https?:\/\/\S+$/i.test(v.base_url), { path: ['base_url'], message: 'common.validation.url' });

/** What runs on this computer for each kind of route: a GGUF chat model (llama.cpp) or a whisper.cpp speech model. */
const LOCAL = {
  chat: { provider: 'local-llama', label: 'ai.routes.localModel', help: 'ai.routes.localModelHelp' },
  audio: { provider: 'local-whisper', label: 'ai.routes.localWhisper', help: 'ai.routes.localWhisperHelp' },
} as const satisfies Record<AiRouteKind, { provider: AiRoute['provider']; label: string; help: string }>;

/** The model files a local route of this kind can run, as select options (loaded once the local kind is chosen). */
function useLocalModelOptions(kind: AiRouteKind, enabled: boolean) {
  const chat = useQuery({ ...aiQueries.chatModels(), enabled: enabled && kind === 'chat' });
  const speech = useQuery({ ...speechQueries.models(), enabled: enabled && kind === 'audio' });
  const options =
    kind === 'chat'
      ? chat.data?.map((m) => ({ value: m.name, label: [m.name, m.architecture, m.quantization].filter(Boolean).join(' · ') }))
      : speech.data?.map((m) => ({ value: m.name, label: [m.name, m.official].filter(Boolean).join(' · ') }));
  return { options, loading: kind === 'chat' ? chat.isLoading : speech.isLoading };
}

/**
 * Adds a chat or audio route (a remote service or a model file on this computer) or edits one; the stored key is only
 * ever named by its masked form.
 */
export function RouteDialog({ kind, route, onClose }: { kind: AiRouteKind; route: AiRoute | null; onClose(): void }) {
  const { t } = useTranslation();
  const localKind = LOCAL[kind];
  const form = useZodForm(schema, {
    name: route?.name ?? '',
    provider: route?.provider === localKind.provider ? localKind.provider : 'openai-compatible',
    base_url: route?.base_url ?? '',
    model: route?.model ?? '',
    api_key: '',
    priority: route?.priority ?? 100,
    enabled: route?.enabled ?? true,
    connect_timeout_ms: route?.connect_timeout_ms ?? null,
    idle_timeout_ms: route?.idle_timeout_ms ?? null,
  });
  const create = useCreateRoute(kind);
  const update = useUpdateRoute();
  const local = form.watch('provider') === localKind.provider;
  const models = useLocalModelOptions(kind, local);
  const submit = ({ api_key, base_url, ...values }: z.output<typeof schema>) => {
    const remote = values.provider === 'openai-compatible';
    const input = { ...values, base_url: remote ? base_url : '', ...(api_key && remote ? { api_key } : {}) };
    if (route) update.mutate({ id: route.id, change: input }, { onSuccess: onClose });
    else create.mutate(input, { onSuccess: onClose });
  };
  const keyHelp = route?.has_api_key ? t('ai.routes.storedKey', { key: route.api_key }) : t('ai.routes.keyHelp');
  return (
    <FormDialog title={route ? t('ai.editOf', { name: route.name }) : t('ai.routes.new')} form={form} mutation={route ? update : create} submitLabel={t(route ? 'common.action.save' : 'ai.create')} onSubmit={submit} onClose={onClose} width={640}>
      <Row gutter={16}>
        <Col span={12}>
          <FormItem control={form.control} name="name" label={t('ai.routes.name')} required>
            {(field) => <Input {...field} />}
          </FormItem>
        </Col>
        <Col span={12}>
          <FormItem control={form.control} name="provider" label={t('ai.routes.kind')} extra={local ? t(localKind.help) : undefined}>
            {({ id, value, onChange }) => (
              <Radio.Group id={id} value={value} onChange={(e) => onChange(e.target.value)} optionType="button">
                <Radio.Button value="openai-compatible">{t('ai.routes.remote')}</Radio.Button>
                <Radio.Button value={localKind.provider}>{t(localKind.label)}</Radio.Button>
              </Radio.Group>
            )}
          </FormItem>
        </Col>
        <Col span={24}>
          {local ? (
            <FormItem control={form.control} name="model" label={t('ai.routes.modelFile')} extra={models.options?.length === 0 ? t(kind === 'chat' ? 'ai.routes.noModelFiles' : 'ai.routes.noWhisperFiles') : undefined} required>
              {({ id, value, onChange }) => (
                <Select
                  id={id}
                  value={value || undefined}
                  onChange={onChange}
                  loading={models.loading}
                  placeholder={t('ai.routes.chooseModelFile')}
                  options={models.options ?? []}
                />
              )}
            </FormItem>
          ) : (
            <FormItem control={form.control} name="model" label={t('ai.routes.model')} required>
              {(field) => <Input {...field} />}
            </FormItem>
          )}
        </Col>
        {!local && (
          <>
            <Col span={24}>
              <FormItem control={form.control} name="base_url" label={t('ai.routes.baseUrl')} extra={t('ai.routes.baseUrlHelp')} required>
                {(field) => <Input {...field} inputMode="url" />}
              </FormItem>
            </Col>
            <Col span={24}>
              <FormItem control={form.control} name="api_key" label={t('ai.routes.apiKey')} extra={keyHelp}>
                {(field) => <Input.Password {...field} autoComplete="off" visibilityToggle={false} />}
              </FormItem>
            </Col>
          </>
        )}
        <Col span={8}>
          <FormItem control={form.control} name="priority" label={t('ai.routes.priority')} extra={t('ai.routes.priorityHelp')}>
            {(field) => <InputNumber {...field} min={0} precision={0} className="full-width" />}
          </FormItem>
        </Col>
        {kind === 'chat' && (
          <>
        <Col span={8}>
          <FormItem control={form.control} name="connect_timeout_ms" label={t('ai.routes.connectTimeout')} extra={t('ai.routes.timeoutHelp')}>
            {(field) => <InputNumber {...field} min={100} precision={0} className="full-width" />}
          </FormItem>
        </Col>
        <Col span={8}>
          <FormItem control={form.control} name="idle_timeout_ms" label={t('ai.routes.idleTimeout')} extra={t('ai.routes.timeoutHelp')}>
            {(field) => <InputNumber {...field} min={100} precision={0} className="full-width" />}
          </FormItem>
        </Col>
          </>
        )}
        <Col span={24}>
          <FormItem control={form.control} name="enabled" label={t('ai.routes.enabled')}>
            {({ id, value, onChange }) => <Switch id={id} checked={value} onChange={onChange} />}
          </FormItem>
        </Col>
      </Row>
    </FormDialog>
  );
}
