import { Button } from 'antd';
import { ConfirmButton } from '../ConfirmButton';
import { ErrorNotice } from '../states';

interface Props {
  active: boolean;
  /** What the confirmation asks ("下架产品「…」？"). */
  confirm: string;
  /** The action's name for this kind of thing ("下架", "停用"), and the way back ("重新上架", "启用"). */
  offLabel: string;
  onLabel: string;
  /** The thing's name, for the buttons' accessible names. */
  name: string;
  onSet(active: boolean): void;
  pending: boolean;
  error: unknown;
}

/** The soft delete of an admin list's row (after a confirmation), or bringing the row back. */
export function ActiveToggle({ active, confirm, offLabel, onLabel, name, onSet, pending, error }: Props) {
  if (active)
    return (
      <ConfirmButton confirm={confirm} onConfirm={() => onSet(false)} loading={pending} aria-label={`${offLabel} ${name}`} error={error}>
        {offLabel}
      </ConfirmButton>
    );
  return (
    <>
      <Button size="small" loading={pending} aria-label={`${onLabel} ${name}`} onClick={() => onSet(true)}>
        {onLabel}
      </Button>
      {!!error && <ErrorNotice error={error} />}
    </>
  );
}
