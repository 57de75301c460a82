import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import { Col, Input, Radio, Row } from 'antd';
import { FormDialog } from '../../components/form/FormDialog';
import { FormItem, useZodForm } from '../../components/form/ZodForm';
import type { Specialist } from '../../api/types';
import { aiQueries } from './queries';
import { useCreateSpecialist, useUpdateSpecialist } from './mutations';
import { OrderedPicker } from './OrderedPicker';
import { keyField } from './fields';
import { NameKeyFields } from './NameKeyFields';
import { useShownText } from '../../i18n/useShownText';

const schema = z.object({
  key: keyField,
  name: z.string().trim().min(1, 'common.validation.required').max(200, 'ai.tooLong'),
  state: z.enum(['active', 'inactive']),
  rule_file_markdown: z.string().max(200_000, 'ai.tooLong'),
  allowed_skills: z.array(z.string()),
});

/** A specialist's name, key, job description (the system instructions) and its allowed skills in priority order. */
export function SpecialistDialog({ specialist, onClose }: { specialist: Specialist | null; onClose(): void }) {
  const { t } = useTranslation();
  const skills = useQuery(aiQueries.definitions('skill'));
  const shown = useShownText();
  const form = useZodForm(schema, {
    key: specialist?.key ?? '',
    name: specialist?.name ?? '',
    state: specialist?.state === 'inactive' ? 'inactive' : 'active',
    rule_file_markdown: specialist?.rule_file_markdown ?? '',
    allowed_skills: specialist?.allowed_skills ?? [],
  });
  const create = useCreateSpecialist();
  const update = useUpdateSpecialist();
  const submit = (values: z.output<typeof schema>) => {
    if (specialist) update.mutate({ id: specialist.id, change: values }, { onSuccess: onClose });
    else create.mutate(values, { onSuccess: onClose });
  };
  const skillOptions = (skills.data ?? []).map((s) => ({ value: s.key, label: `${shown(s).name} (${s.key})` }));
  return (
    <FormDialog title={specialist ? t('ai.editOf', { name: shown(specialist).name }) : t('ai.specialists.new')} form={form} mutation={specialist ? update : create} submitLabel={t(specialist ? 'common.action.save' : 'ai.create')} onSubmit={submit} onClose={onClose} width={720}>
      <Row gutter={16}>
        <NameKeyFields control={form.control} nameLabel={t('ai.specialists.name')} />
        <Col span={24}>
          <FormItem control={form.control} name="state" label={t('ai.state')}>
            {({ id, value, onChange }) => (
              <Radio.Group id={id} aria-label={t('ai.state')} optionType="button" value={value} onChange={(e) => onChange(e.target.value)} options={(['active', 'inactive'] as const).map((s) => ({ value: s, label: t(`ai.states.${s}`) }))} />
            )}
          </FormItem>
        </Col>
        <Col span={24}>
          <FormItem control={form.control} name="rule_file_markdown" label={t('ai.specialists.jobDescription')} extra={t('ai.specialists.jobDescriptionHelp')}>
            {(field) => <Input.TextArea {...field} autoSize={{ minRows: 4, maxRows: 12 }} />}
          </FormItem>
        </Col>
        <Col span={24}>
          <FormItem control={form.control} name="allowed_skills" label={t('ai.specialists.skills')} extra={t('ai.specialists.skillsHelp')}>
            {({ id, value, onChange }) => <OrderedPicker id={id} value={value} onChange={onChange} options={skillOptions} label={t('ai.specialists.skills')} />}
          </FormItem>
        </Col>
      </Row>
    </FormDialog>
  );
}
