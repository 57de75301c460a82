import type { Position } from '../../api/types';
import { useCreatePosition, useUpdatePosition } from './mutations';
import { NameDialog, type NameValues } from './NameDialog';

/** Creates a position (null) or edits its name and description. */
export function PositionDialog({ position, onClose, onSaved }: { position: Position | null; onClose(): void; onSaved?(position: Position): void }) {
  const create = useCreatePosition();
  const update = useUpdatePosition();
  const done = (saved: Position) => {
    onClose();
    onSaved?.(saved);
  };
  const submit = (values: NameValues) => {
    if (position) update.mutate({ id: position.id, ...values }, { onSuccess: done });
    else create.mutate(values, { onSuccess: done });
  };
  return <NameDialog area="positions" initial={position} mutation={position ? update : create} onSubmit={submit} onClose={onClose} />;
}
