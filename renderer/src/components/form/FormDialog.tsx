import type { ReactNode } from 'react';
import type { FieldValues, SubmitHandler, UseFormReturn } from 'react-hook-form';
import { Button, Flex, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { ErrorNotice } from '../states';
import { ZodForm } from './ZodForm';
import { useDiscardGuard } from './useDiscardGuard';

/** What the dialog needs of a mutation: its error, whether it runs, and a way to forget both. */
interface MutationState {
  error: unknown;
  isPending: boolean;
  reset(): void;
}

interface Props<In extends FieldValues, Out extends FieldValues> {
  /** Omitted: open (mount the dialog only while it is needed, so its form starts from the item it edits). */
  open?: boolean;
  /** The dialog's title, also the form's accessible name. */
  title: string;
  form: UseFormReturn<In, unknown, Out>;
  mutation: MutationState;
  submitLabel: string;
  onSubmit: SubmitHandler<Out>;
  onClose(): void;
  width?: number;
  children: ReactNode;
}

/**
 * The dialog pattern: an antd Modal around a ZodForm, the mutation's error inside, cancel and submit at the bottom.
 * Closing with unsaved input asks first (useDiscardGuard); closing clears the form and the mutation's error.
 */
export function FormDialog<In extends FieldValues, Out extends FieldValues>({ open = true, title, form, mutation, submitLabel, onSubmit, onClose, width, children }: Props<In, Out>) {
  const { t } = useTranslation();
  const { requestClose, holder } = useDiscardGuard();
  const close = () => {
    form.reset();
    mutation.reset();
    onClose();
  };
  // Read while rendering, so the form tells this component when it becomes dirty.
  const dirty = form.formState.isDirty;
  const cancel = () => requestClose(dirty, close);
  return (
    <Modal open={open} title={title} onCancel={cancel} footer={null} destroyOnHidden width={width}>
      {holder}
      <ZodForm form={form} onSubmit={onSubmit} aria-label={title}>
        {children}
        {mutation.error ? <ErrorNotice error={mutation.error} /> : null}
        <Flex justify="flex-end" gap="small" className="section-top">
          <Button onClick={cancel}>{t('common.action.cancel')}</Button>
          <Button type="primary" htmlType="submit" loading={mutation.isPending}>
            {submitLabel}
          </Button>
        </Flex>
      </ZodForm>
    </Modal>
  );
}
