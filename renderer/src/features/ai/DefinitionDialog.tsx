import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import { Col, Input, Radio, Row, Switch } from 'antd';
import { FormDialog } from '../../components/form/FormDialog';
import { FormItem, useZodForm } from '../../components/form/ZodForm';
import type { Definition, DefinitionKind } from './queries';
import { useSaveDefinition } from './mutations';
import { keyField } from './fields';
import { NameKeyFields } from './NameKeyFields';

const isJsonObject = (text: string) => {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
};

/** The template's own placeholders, shown as they are typed (i18next would otherwise fill them in). */
const PLACEHOLDERS = { message: '{{message}}', documents: '{{documents}}', name: '{{name}}' };

const schema = z.object({
  key: keyField,
  name: z.string().trim().min(1, 'common.validation.required').max(200, 'ai.tooLong'),
  description: z.string().max(10_000, 'ai.tooLong'),
  exposed_to_user: z.boolean(),
  config_json: z.string().refine(isJsonObject, 'ai.definitions.configInvalid'),
  output_kind: z.enum(['table', 'report']),
  prompt_template: z.string().max(50_000, 'ai.tooLong'),
});

/** Creates or edits a skill or an app; skills also say what they produce and the prompt of a run. */
export function DefinitionDialog({ kind, title, definition, onClose }: { kind: DefinitionKind; title: string; definition: Definition | null; onClose(): void }) {
  const { t } = useTranslation();
  const skill = definition?.object_kind === 'skill' ? definition : null;
  const form = useZodForm(schema, {
    key: definition?.key ?? '',
    name: definition?.name ?? '',
    description: definition?.description ?? '',
    exposed_to_user: definition?.exposed_to_user ?? true,
    config_json: definition?.config_json ?? '{}',
    output_kind: skill?.output_kind ?? 'report',
    prompt_template: skill?.prompt_template ?? '',
  });
  const save = useSaveDefinition(kind);
  const submit = ({ output_kind, prompt_template, ...common }: z.output<typeof schema>) =>
    save.mutate({ id: definition?.id ?? null, input: kind === 'skill' ? { ...common, output_kind, prompt_template } : common }, { onSuccess: onClose });
  return (
    <FormDialog title={title} form={form} mutation={save} submitLabel={t(definition ? 'common.action.save' : 'ai.create')} onSubmit={submit} onClose={onClose} width={720}>
      <Row gutter={16}>
        <NameKeyFields control={form.control} nameLabel={t('ai.definitions.name')} />
        <Col span={24}>
          <FormItem control={form.control} name="description" label={t('ai.definitions.description')}>
            {(field) => <Input.TextArea {...field} autoSize={{ minRows: 2, maxRows: 5 }} />}
          </FormItem>
        </Col>
        <Col span={24}>
          <FormItem control={form.control} name="exposed_to_user" label={t('ai.definitions.exposed')} extra={t('ai.definitions.exposedHelp')}>
            {({ id, value, onChange }) => <Switch id={id} checked={value} onChange={onChange} />}
          </FormItem>
        </Col>
        {kind === 'skill' && (
          <>
            <Col span={24}>
              <FormItem control={form.control} name="output_kind" label={t('ai.definitions.output')}>
                {({ id, value, onChange }) => (
                  <Radio.Group id={id} aria-label={t('ai.definitions.output')} optionType="button" value={value} onChange={(e) => onChange(e.target.value)} options={(['report', 'table'] as const).map((o) => ({ value: o, label: t(`ai.definitions.outputs.${o}`) }))} />
                )}
              </FormItem>
            </Col>
            <Col span={24}>
              <FormItem control={form.control} name="prompt_template" label={t('ai.definitions.prompt')} extra={t('ai.definitions.promptHelp', PLACEHOLDERS)}>
                {(field) => <Input.TextArea {...field} autoSize={{ minRows: 3, maxRows: 10 }} />}
              </FormItem>
            </Col>
          </>
        )}
        <Col span={24}>
          <FormItem control={form.control} name="config_json" label={t('ai.definitions.config')} extra={t('ai.definitions.configHelp')}>
            {(field) => <Input.TextArea {...field} className="code-input" autoSize={{ minRows: 2, maxRows: 8 }} />}
          </FormItem>
        </Col>
      </Row>
    </FormDialog>
  );
}
