import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import { Button, Card, Col, Input, InputNumber, Radio, Row, Select, Space } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useFieldArray, type FieldErrors } from 'react-hook-form';
import { RiskTolerances } from '../../../../contract/roleplay.js';
import type { Scenario } from '../../../../contract/roleplay.js';
import { FormItem, useZodForm } from '../../components/form/ZodForm';
import { FormDialog } from '../../components/form/FormDialog';
import { ProductPicker } from '../coach/ProductPicker';
import { useSaveScenario, type ScenarioInput } from './admin-queries';

const required = (max: number) => z.string().trim().min(1, 'common.validation.required').max(max, 'content.validation.tooLong');
const whole = (min: number, max: number) => z.number({ error: 'roleplay.admin.validation.number' }).int('roleplay.admin.validation.number').min(min, 'roleplay.admin.validation.number').max(max, 'roleplay.admin.validation.number');

const criterion = z
  .object({
    key: z.string().trim().regex(/^[a-z][a-z0-9_]*$/, 'roleplay.admin.validation.key'),
    label: required(200),
    weight: z.number({ error: 'roleplay.admin.validation.weight' }).positive('roleplay.admin.validation.weight'),
    rule_key: z.string().trim(),
    phrases: z.string(),
    description: z.string().trim(),
  })
  .refine((c) => c.rule_key || c.phrases.trim() || c.description, { path: ['phrases'], message: 'roleplay.admin.validation.criterionWay' });

const schema = z
  .object({
    title: required(200),
    product_id: z.number().nullable(),
    persona_name: required(100),
    persona_profile: z.string().trim().max(2000, 'content.validation.tooLong'),
    risk_tolerance: z.enum(RiskTolerances),
    opening: required(2000),
    objections: z.array(z.object({ text: required(2000) })).max(30),
    closing: required(2000),
    criteria: z.array(criterion).min(1, 'roleplay.admin.validation.criteria').max(50),
    pass_score: whole(0, 100),
    max_turns: whole(1, 100),
    status: z.enum(['active', 'inactive']),
  })
  .refine((s) => new Set(s.criteria.map((c) => c.key)).size === s.criteria.length, { path: ['criteria'], message: 'roleplay.admin.validation.uniqueKeys' });
type Values = z.input<typeof schema>;

const emptyCriterion = { key: '', label: '', weight: 1, rule_key: '', phrases: '', description: '' };

const valuesOf = (s?: Scenario): Values => ({
  title: s?.title ?? '',
  product_id: s?.product_id ?? null,
  persona_name: s?.persona.name ?? '',
  persona_profile: s?.persona.profile ?? '',
  risk_tolerance: s?.persona.risk_tolerance ?? 'C3',
  opening: s?.opening ?? '',
  objections: (s?.objections ?? []).map((text) => ({ text })),
  closing: s?.closing ?? '',
  criteria: s?.criteria.map((c) => ({ key: c.key, label: c.label, weight: c.weight, rule_key: c.rule_key ?? '', phrases: (c.phrases ?? []).join('\n'), description: c.description ?? '' })) ?? [emptyCriterion],
  pass_score: s?.pass_score ?? 60,
  max_turns: s?.max_turns ?? 12,
  status: s?.status ?? 'active',
});

/** The form's values as the API takes them: empty optional parts left out, phrases one a line. */
function inputOf(v: z.output<typeof schema>): ScenarioInput {
  return {
    title: v.title,
    product_id: v.product_id,
    persona: { name: v.persona_name, profile: v.persona_profile, risk_tolerance: v.risk_tolerance },
    opening: v.opening,
    objections: v.objections.map((o) => o.text),
    closing: v.closing,
    criteria: v.criteria.map((c) => {
      const phrases = c.phrases.split('\n').map((p) => p.trim()).filter(Boolean);
      return { key: c.key, label: c.label, weight: c.weight, ...(c.rule_key && { rule_key: c.rule_key }), ...(phrases.length && { phrases }), ...(c.description && { description: c.description }) };
    }),
    pass_score: v.pass_score,
    max_turns: v.max_turns,
    status: v.status,
  };
}

/** The scenario editor: persona, the customer's lines, objections and criteria as lists, a product to practise. */
export function ScenarioDialog({ scenario, onClose, onSaved }: { scenario?: Scenario; onClose(): void; onSaved(s: Scenario): void }) {
  const { t } = useTranslation();
  const form = useZodForm(schema, valuesOf(scenario));
  const save = useSaveScenario();
  const objections = useFieldArray({ control: form.control, name: 'objections' });
  const criteria = useFieldArray({ control: form.control, name: 'criteria' });
  const errors = form.formState.errors;
  const title = scenario ? t('roleplay.admin.edit', { title: scenario.title }) : t('roleplay.admin.new');
  const submit = (v: z.output<typeof schema>) => save.mutate({ id: scenario?.id, fields: inputOf(v) }, { onSuccess: onSaved });
  const text = (name: 'title' | 'persona_name' | 'opening' | 'closing', label: string) => (
    <FormItem control={form.control} name={name} label={label} required>
      {(field) => <Input {...field} />}
    </FormItem>
  );
  return (
    <FormDialog title={title} form={form} mutation={save} submitLabel={t('common.action.save')} onSubmit={submit} onClose={onClose} width={860}>
      <Row gutter={16}>
        <Col span={14}>{text('title', t('roleplay.admin.title'))}</Col>
        <Col span={10}>
          <FormItem control={form.control} name="product_id" label={t('roleplay.admin.product')}>
            {(field) => <ProductPicker id={field.id} value={form.getValues('product_id') ?? undefined} onChange={(id) => field.onChange(id ?? null)} />}
          </FormItem>
        </Col>
        <Col span={8}>{text('persona_name', t('roleplay.admin.personaName'))}</Col>
        <Col span={16}>
          <FormItem control={form.control} name="risk_tolerance" label={t('roleplay.admin.riskTolerance')}>
            {(field) => <Radio.Group {...field} optionType="button" aria-label={t('roleplay.admin.riskTolerance')} options={RiskTolerances.map((r) => ({ value: r, label: r }))} />}
          </FormItem>
        </Col>
      </Row>
      <FormItem control={form.control} name="persona_profile" label={t('roleplay.admin.personaProfile')}>
        {(field) => <Input.TextArea {...field} autoSize={{ minRows: 2, maxRows: 4 }} />}
      </FormItem>
      {text('opening', t('roleplay.admin.opening'))}
      <fieldset className="section">
        <legend>{t('roleplay.admin.objections')}</legend>
        {objections.fields.map((o, i) => (
          <Space.Compact key={o.id} className="full-width" style={{ marginBottom: 8 }}>
            <FormItem control={form.control} name={`objections.${i}.text`} label={<span className="visually-hidden">{t('roleplay.admin.objection', { n: i + 1 })}</span>}>
              {(field) => <Input {...field} aria-label={t('roleplay.admin.objection', { n: i + 1 })} placeholder={t('roleplay.admin.objection', { n: i + 1 })} />}
            </FormItem>
            <Button icon={<DeleteOutlined aria-hidden />} aria-label={t('roleplay.admin.removeObjection', { n: i + 1 })} onClick={() => objections.remove(i)} />
          </Space.Compact>
        ))}
        <Button icon={<PlusOutlined aria-hidden />} onClick={() => objections.append({ text: '' })}>
          {t('roleplay.admin.addObjection')}
        </Button>
      </fieldset>
      {text('closing', t('roleplay.admin.closing'))}
      <fieldset className="section">
        <legend>{t('roleplay.admin.criteria')}</legend>
        {criteria.fields.map((c, i) => (
          <Card key={c.id} size="small" className="section" title={t('roleplay.admin.criterion', { n: i + 1 })} extra={<Button size="small" icon={<DeleteOutlined aria-hidden />} aria-label={t('roleplay.admin.removeCriterion', { n: i + 1 })} onClick={() => criteria.remove(i)} disabled={criteria.fields.length === 1} />}>
            <Row gutter={12}>
              <Col span={6}>
                <FormItem control={form.control} name={`criteria.${i}.key`} label={t('roleplay.admin.key')} required>
                  {(field) => <Input {...field} />}
                </FormItem>
              </Col>
              <Col span={12}>
                <FormItem control={form.control} name={`criteria.${i}.label`} label={t('roleplay.admin.label')} required>
                  {(field) => <Input {...field} />}
                </FormItem>
              </Col>
              <Col span={6}>
                <FormItem control={form.control} name={`criteria.${i}.weight`} label={t('roleplay.admin.weight')}>
                  {(field) => <InputNumber {...field} className="full-width" min={0} />}
                </FormItem>
              </Col>
              <Col span={8}>
                <FormItem control={form.control} name={`criteria.${i}.rule_key`} label={t('roleplay.admin.ruleKey')}>
                  {(field) => <Input {...field} />}
                </FormItem>
              </Col>
              <Col span={16}>
                <FormItem control={form.control} name={`criteria.${i}.phrases`} label={t('roleplay.admin.phrases')} extra={t('roleplay.admin.phrasesHelp')}>
                  {(field) => <Input.TextArea {...field} autoSize={{ minRows: 1, maxRows: 4 }} />}
                </FormItem>
              </Col>
              <Col span={24}>
                <FormItem control={form.control} name={`criteria.${i}.description`} label={t('roleplay.admin.description')} extra={t('roleplay.admin.descriptionHelp')}>
                  {(field) => <Input {...field} />}
                </FormItem>
              </Col>
            </Row>
          </Card>
        ))}
        <ListError errors={errors} />
        <Button icon={<PlusOutlined aria-hidden />} onClick={() => criteria.append({ ...emptyCriterion })}>
          {t('roleplay.admin.addCriterion')}
        </Button>
      </fieldset>
      <Row gutter={16} className="section">
        <Col span={8}>
          <FormItem control={form.control} name="pass_score" label={t('roleplay.admin.passScore')} required>
            {(field) => <InputNumber {...field} className="full-width" precision={0} />}
          </FormItem>
        </Col>
        <Col span={8}>
          <FormItem control={form.control} name="max_turns" label={t('roleplay.admin.maxTurns')} required>
            {(field) => <InputNumber {...field} className="full-width" precision={0} />}
          </FormItem>
        </Col>
        <Col span={8}>
          <FormItem control={form.control} name="status" label={t('roleplay.admin.status')}>
            {(field) => <Select {...field} options={(['active', 'inactive'] as const).map((s) => ({ value: s, label: t(`roleplay.admin.statuses.${s}`) }))} />}
          </FormItem>
        </Col>
      </Row>
    </FormDialog>
  );
}

/** The criteria list's own message (none, or keys repeated). */
function ListError({ errors }: { errors: FieldErrors<Values> }) {
  const { t } = useTranslation();
  const message = errors.criteria?.message ?? errors.criteria?.root?.message;
  return message ? (
    <div role="alert" className="ant-form-item-explain-error" style={{ marginBottom: 8 }}>
      {t(message as never)}
    </div>
  ) : null;
}
