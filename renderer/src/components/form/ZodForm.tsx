// The form pattern: a zod schema (its messages are i18n keys, e.g. 'common.validation.required'), useZodForm for
// react-hook-form with the zod resolver, <ZodForm> for antd's layout, one <FormItem> per field.
import { useId, type ReactElement, type ReactNode } from 'react';
import { Controller, useForm, type Control, type DefaultValues, type FieldPath, type FieldValues, type SubmitHandler, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { useTranslation } from 'react-i18next';
import { Form, type FormProps } from 'antd';

export function useZodForm<S extends z.ZodType<FieldValues, FieldValues>>(schema: S, defaultValues: DefaultValues<z.input<S>>) {
  return useForm<z.input<S>, unknown, z.output<S>>({ resolver: zodResolver(schema), defaultValues, mode: 'onTouched' });
}

type ZodFormProps<In extends FieldValues, Out extends FieldValues> = Omit<FormProps, 'form' | 'onFinish' | 'onSubmit' | 'onSubmitCapture'> & {
  form: UseFormReturn<In, unknown, Out>;
  onSubmit: SubmitHandler<Out>;
  children: ReactNode;
};

/**
 * antd's form layout (labels, spacing, help texts) around a react-hook-form: submitting validates with zod first.
 * The submit event goes straight to react-hook-form (capture phase); antd's own validation has no fields to check.
 */
export function ZodForm<In extends FieldValues, Out extends FieldValues>({ form, onSubmit, children, ...props }: ZodFormProps<In, Out>) {
  return (
    <Form layout="vertical" {...props} onSubmitCapture={(event) => void form.handleSubmit(onSubmit)(event)}>
      {children}
    </Form>
  );
}

/** What a field's control receives: spread it onto the antd input. */
export interface FieldProps {
  id: string;
  name: string;
  value: never;
  onChange: (...event: unknown[]) => void;
  onBlur: () => void;
  'aria-invalid': boolean;
}

interface FormItemProps<T extends FieldValues, O extends FieldValues> {
  control: Control<T, unknown, O>;
  name: FieldPath<T>;
  label: ReactNode;
  extra?: ReactNode;
  required?: boolean;
  children: (field: FieldProps) => ReactElement;
}

/** One labelled field: the label points at the control, the zod message (an i18n key) shows translated below it. */
export function FormItem<T extends FieldValues, O extends FieldValues>({ control, name, label, extra, required, children }: FormItemProps<T, O>) {
  const id = useId();
  const { t } = useTranslation();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <Form.Item label={label} htmlFor={id} required={required} extra={extra} validateStatus={fieldState.error ? 'error' : undefined} help={fieldState.error?.message && t(fieldState.error.message as never)}>
          {children({ id, name: field.name, value: field.value as never, onChange: field.onChange, onBlur: field.onBlur, 'aria-invalid': !!fieldState.error })}
        </Form.Item>
      )}
    />
  );
}
