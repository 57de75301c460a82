import type { Control, FieldPath, FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Col, Input } from 'antd';
import { FormItem } from '../../components/form/ZodForm';

/** The name and key of a workbench definition (specialist, skill, app): two columns of a dialog's Row. */
export function NameKeyFields<T extends FieldValues & { name: string; key: string }, O extends FieldValues>({ control, nameLabel }: { control: Control<T, unknown, O>; nameLabel: string }) {
  const { t } = useTranslation();
  return (
    <>
      <Col span={12}>
        <FormItem control={control} name={'name' as FieldPath<T>} label={nameLabel} required>
          {(field) => <Input {...field} />}
        </FormItem>
      </Col>
      <Col span={12}>
        <FormItem control={control} name={'key' as FieldPath<T>} label={t('ai.key')} extra={t('ai.keyHelp')} required>
          {(field) => <Input {...field} autoComplete="off" />}
        </FormItem>
      </Col>
    </>
  );
}
