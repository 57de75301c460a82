import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import { Input } from 'antd';
import { FormDialog } from '../../components/form/FormDialog';
import { FormItem, useZodForm } from '../../components/form/ZodForm';

const schema = z.object({
  name: z.string().trim().min(1, 'common.validation.required').max(100, 'org.tooLong'),
  description: z.string().max(2000, 'org.tooLong'),
});
export type NameValues = z.output<typeof schema>;

interface Props {
  /** 'departments' or 'positions': the texts under org.<area>. */
  area: 'departments' | 'positions';
  /** The item edited, or null for a new one. */
  initial: NameValues | null;
  mutation: { error: unknown; isPending: boolean; reset(): void };
  onSubmit(values: NameValues): void;
  onClose(): void;
}

/** Creates or edits something that is a name and a description (a department, a position). */
export function NameDialog({ area, initial, mutation, onSubmit, onClose }: Props) {
  const { t } = useTranslation();
  const form = useZodForm(schema, initial ?? { name: '', description: '' });
  return (
    <FormDialog title={t(initial ? `org.${area}.edit` : `org.${area}.new`)} form={form} mutation={mutation} submitLabel={t(initial ? 'common.action.save' : 'org.create')} onSubmit={onSubmit} onClose={onClose}>
      <FormItem control={form.control} name="name" label={t(`org.${area}.name`)} required>
        {(field) => <Input {...field} />}
      </FormItem>
      <FormItem control={form.control} name="description" label={t(`org.${area}.description`)}>
        {(field) => <Input.TextArea {...field} autoSize={{ minRows: 2, maxRows: 5 }} />}
      </FormItem>
    </FormDialog>
  );
}
