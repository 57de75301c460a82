import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import { Input, Radio, Switch } from 'antd';
import { FormDialog } from '../../components/form/FormDialog';
import { FormItem, useZodForm } from '../../components/form/ZodForm';
import { RemoteSelect } from '../../components/form/RemoteSelect';
import type { Position, PositionKnowledge } from '../../api/types';
import { catalogOptions } from './queries';
import { useAddKnowledge } from './mutations';
import { KNOWLEDGE_KINDS } from './knowledge-kinds';

const KINDS = Object.keys(KNOWLEDGE_KINDS) as PositionKnowledge['kind'][];

const schema = z
  .object({
    kind: z.enum(['text', 'course', 'product']),
    ref_id: z.number().int().positive().nullable(),
    title: z.string().trim().min(1, 'common.validation.required').max(200, 'org.tooLong'),
    is_mandatory: z.boolean(),
  })
  .refine((v) => v.kind === 'text' || v.ref_id !== null, { message: 'org.knowledge.pickOne', path: ['ref_id'] });

/** Adds a knowledge item to a position: a text of its own, or a course or product picked from the catalogue. */
export function KnowledgeDialog({ position, onClose }: { position: Position; onClose(): void }) {
  const { t } = useTranslation();
  const form = useZodForm(schema, { kind: 'text', ref_id: null, title: '', is_mandatory: true });
  const add = useAddKnowledge();
  const kind = form.watch('kind');
  const submit = (item: z.output<typeof schema>) => add.mutate({ positionId: position.id, item: { ...item, ref_id: item.kind === 'text' ? null : item.ref_id } }, { onSuccess: onClose });
  return (
    <FormDialog title={t('org.knowledge.add')} form={form} mutation={add} submitLabel={t('org.knowledge.add')} onSubmit={submit} onClose={onClose}>
      <FormItem control={form.control} name="kind" label={t('org.knowledge.kind')}>
        {({ value, onChange, id }) => (
          <Radio.Group
            id={id}
            aria-label={t('org.knowledge.kind')}
            optionType="button"
            value={value}
            onChange={(e) => {
              onChange(e.target.value);
              form.setValue('ref_id', null);
            }}
            options={KINDS.map((k) => ({ value: k, label: t(KNOWLEDGE_KINDS[k]) }))}
          />
        )}
      </FormItem>
      {kind !== 'text' && (
        <FormItem control={form.control} name="ref_id" label={t(kind === 'course' ? 'org.knowledge.course' : 'org.knowledge.product')} required>
          {({ value, id }) => (
            <RemoteSelect
              id={id}
              search={catalogOptions[kind]}
              value={value}
              onChange={(refId, option) => {
                form.setValue('ref_id', refId, { shouldValidate: true });
                if (option && !form.getValues('title').trim()) form.setValue('title', option.label, { shouldValidate: true });
              }}
            />
          )}
        </FormItem>
      )}
      <FormItem control={form.control} name="title" label={t('org.knowledge.itemTitle')} required>
        {(field) => <Input {...field} />}
      </FormItem>
      <FormItem control={form.control} name="is_mandatory" label={t('org.knowledge.mandatory')}>
        {({ value, onChange, id }) => <Switch id={id} checked={value} onChange={onChange} />}
      </FormItem>
    </FormDialog>
  );
}
