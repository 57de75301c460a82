import { useTranslation } from 'react-i18next';
import { ConfirmButton } from '../../components/ConfirmButton';
import type { Position } from '../../api/types';
import { useDeletePosition } from './mutations';

/** Deletes a position after asking; its holders keep their accounts without a position. */
export function DeletePosition({ position, onDeleted }: { position: Position; onDeleted?(): void }) {
  const { t } = useTranslation();
  const remove = useDeletePosition();
  return (
    <ConfirmButton
      confirm={t('org.positions.deleteConfirm', { name: position.name })}
      onConfirm={() => remove.mutate(position.id, { onSuccess: onDeleted })}
      loading={remove.isPending}
      error={remove.error}
      aria-label={t('org.deleteOf', { name: position.name })}
    >
      {t('org.delete')}
    </ConfirmButton>
  );
}
