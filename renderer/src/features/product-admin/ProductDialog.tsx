import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import { Col, Input, Row, Select } from 'antd';
import { RiskLevels } from '../../../../contract/compliance';
import { FormItem, useZodForm } from '../../components/form/ZodForm';
import { FormDialog } from '../../components/form/FormDialog';
import type { Product } from '../../api/types';
import { useCreateProduct, useUpdateProduct, type ProductFields } from './mutations';

const percent = (v: string) => v === '' || (/^\d+(\.\d+)?$/.test(v) && Number(v) <= 100);

const schema = z.object({
  code: z.string().trim().max(64, 'content.validation.tooLong'),
  name: z.string().trim().min(1, 'common.validation.required').max(200, 'content.validation.tooLong'),
  category: z.string().trim().max(100, 'content.validation.tooLong'),
  risk_level: z.string(),
  cooling_off_days: z.string().trim().refine((v) => v === '' || (/^\d{1,3}$/.test(v) && Number(v) <= 365), 'content.validation.tooLong'),
  commission_rate: z.string().trim().refine(percent, 'content.validation.percent'),
  summary: z.string().trim(),
  description: z.string().trim(),
});

const valuesOf = (p?: Product): z.input<typeof schema> => ({
  code: p?.code ?? '',
  name: p?.name ?? '',
  category: p?.category ?? '',
  // A level written before levels were R1–R5 only (e.g. 中风险) shows as not set until it is picked again.
  risk_level: (RiskLevels as readonly string[]).includes(p?.risk_level ?? '') ? p!.risk_level : '',
  cooling_off_days: p?.cooling_off_days ? String(p.cooling_off_days) : '',
  commission_rate: p?.commission_rate === null || p?.commission_rate === undefined ? '' : String(p.commission_rate),
  summary: p?.summary ?? '',
  description: p?.description ?? '',
});

const fieldsOf = (v: z.output<typeof schema>): ProductFields => ({ ...v, code: v.code || null, commission_rate: v.commission_rate === '' ? null : Number(v.commission_rate), cooling_off_days: v.cooling_off_days === '' ? 0 : Number(v.cooling_off_days) });

/** Creates a product, or edits `product` (its attributes and status are kept). Mounted per opening, so it starts from the product. */
export function ProductDialog({ product, onClose, onSaved }: { product?: Product; onClose(): void; onSaved(product: Product): void }) {
  const { t } = useTranslation();
  const form = useZodForm(schema, valuesOf(product));
  const create = useCreateProduct();
  const update = useUpdateProduct();
  const saving = product ? update : create;
  const title = product ? t('content.products.edit', { name: product.name }) : t('content.products.new');
  const submit = (values: z.output<typeof schema>) => {
    const fields = fieldsOf(values);
    if (product) update.mutate({ id: product.id, change: fields }, { onSuccess: onSaved });
    else create.mutate(fields, { onSuccess: onSaved });
  };
  return (
    <FormDialog title={title} form={form} mutation={saving} submitLabel={t('common.action.save')} onSubmit={submit} onClose={onClose} width={720}>
      <Row gutter={16}>
        <Col span={16}>
          <FormItem control={form.control} name="name" label={t('content.products.name')} required>
            {(field) => <Input {...field} />}
          </FormItem>
        </Col>
        <Col span={8}>
          <FormItem control={form.control} name="code" label={t('content.products.code')}>
            {(field) => <Input {...field} />}
          </FormItem>
        </Col>
        <Col span={8}>
          <FormItem control={form.control} name="category" label={t('content.products.category')}>
            {(field) => <Input {...field} />}
          </FormItem>
        </Col>
        <Col span={8}>
          <FormItem control={form.control} name="risk_level" label={t('compliance.product.riskLevel')} extra={t('compliance.product.riskHelp')}>
            {(field) => (
              <Select
                {...field}
                options={[{ value: '', label: t('compliance.product.notSet') }, ...RiskLevels.map((level) => ({ value: level, label: t(`compliance.product.levels.${level}`) }))]}
              />
            )}
          </FormItem>
        </Col>
        <Col span={8}>
          <FormItem control={form.control} name="commission_rate" label={t('content.products.commission')}>
            {(field) => <Input {...field} suffix="%" inputMode="decimal" />}
          </FormItem>
        </Col>
        <Col span={8}>
          <FormItem control={form.control} name="cooling_off_days" label={t('compliance.product.coolingOff')} extra={t('compliance.product.coolingOffHelp')}>
            {(field) => <Input {...field} inputMode="numeric" />}
          </FormItem>
        </Col>
      </Row>
      <FormItem control={form.control} name="summary" label={t('content.products.summary')}>
        {(field) => <Input.TextArea {...field} autoSize={{ minRows: 2, maxRows: 4 }} />}
      </FormItem>
      <FormItem control={form.control} name="description" label={t('content.products.description')}>
        {(field) => <Input.TextArea {...field} autoSize={{ minRows: 3, maxRows: 8 }} />}
      </FormItem>
    </FormDialog>
  );
}
