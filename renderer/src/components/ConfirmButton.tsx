import type { ReactNode } from 'react';
import { Button, Popconfirm, type ButtonProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { ErrorNotice } from './states';

interface Props {
  /** The button's text, and the confirming button's. */
  children: string;
  /** The question, naming what is about to happen ("删除部门“培训部”？"). */
  confirm: ReactNode;
  onConfirm(): void;
  loading?: boolean;
  danger?: boolean;
  size?: ButtonProps['size'];
  icon?: ReactNode;
  'aria-label'?: string;
  /** The action's failure, shown below the button. */
  error?: unknown;
}

/** An action that asks first (delete, disable): antd Popconfirm around a button. */
export function ConfirmButton({ children, confirm, onConfirm, loading, danger = true, size = 'small', icon, 'aria-label': ariaLabel, error }: Props) {
  const { t } = useTranslation();
  return (
    <>
      <Popconfirm title={confirm} okText={children} okButtonProps={{ danger }} cancelText={t('common.action.cancel')} onConfirm={onConfirm}>
        <Button size={size} danger={danger} loading={loading} icon={icon} aria-label={ariaLabel}>
          {children}
        </Button>
      </Popconfirm>
      {error ? <ErrorNotice error={error} /> : null}
    </>
  );
}

/** What ConfirmMutation needs of a mutation (TanStack Query's useMutation result). */
interface MutationLike<V> {
  mutate(variables: V, options?: { onSuccess?(): void }): void;
  isPending: boolean;
  error: unknown;
}

/** A ConfirmButton that runs a mutation with `variables` once confirmed; its progress and failure show on the button. */
export function ConfirmMutation<V>({ mutation, variables, onDone, ...props }: Omit<Props, 'onConfirm' | 'loading' | 'error'> & { mutation: MutationLike<V>; variables: V; onDone?(): void }) {
  return <ConfirmButton {...props} onConfirm={() => mutation.mutate(variables, { onSuccess: onDone })} loading={mutation.isPending} error={mutation.error} />;
}
