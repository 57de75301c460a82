import { useTranslation } from 'react-i18next';
import { ConfirmMutation } from '../../components/ConfirmButton';
import type { Position } from '../../api/types';
import { useDeletePosition } from './mutations';

/** Deletes a position after asking; its holders keep their accounts without a position. */
export function DeletePosition({ position, onDeleted }: { position: Position; onDeleted?(): void }) {
  const { t } = useTranslation();
  const remove = useDeletePosition();
  return (
    <ConfirmMutation mutation={remove} variables={position.id} onDone={onDeleted} confirm={t('org.positions.deleteConfirm', { name: position.name })} aria-label={t('org.deleteOf', { name: position.name })}>
      {t('org.delete')}
    </ConfirmMutation>
  );
}
