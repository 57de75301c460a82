// The controls of a route's row, on the chat routes page and the speech page alike.
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Button, Space, Switch, type TableColumnsType } from 'antd';
import { ConfirmMutation } from '../../components/ConfirmButton';
import { ErrorNotice } from '../../components/states';
import type { AiRoute } from '../../api/types';
import { useDeleteRoute, useUpdateRoute } from './mutations';

/** A route's on/off setting, changed at once: enabled, or sent to branch laptops. */
function FlagSwitch({ route, flag, label }: { route: AiRoute; flag: 'enabled' | 'for_branches'; label: string }) {
  const update = useUpdateRoute();
  return (
    <>
      <Switch size="small" aria-label={label} checked={route[flag]} loading={update.isPending} onChange={(on) => update.mutate({ id: route.id, change: { [flag]: on } })} />
      {update.error && <ErrorNotice error={update.error} />}
    </>
  );
}

function DeleteRoute({ route }: { route: AiRoute }) {
  const { t } = useTranslation();
  const remove = useDeleteRoute();
  return (
    <ConfirmMutation mutation={remove} variables={route.id} confirm={t('ai.routes.deleteConfirm', { name: route.name })} aria-label={t('ai.deleteOf', { name: route.name })}>
      {t('ai.delete')}
    </ConfirmMutation>
  );
}

/** The switches (enabled, sent to branches) and the actions (edit, delete, and `before` them) of a routes table. */
export function routeControlColumns<R extends AiRoute>(t: TFunction, onEdit: (route: R) => void, before?: (route: R) => ReactNode): TableColumnsType<R> {
  return [
    { title: t('ai.routes.enabled'), key: 'enabled', render: (_, r) => <FlagSwitch route={r} flag="enabled" label={t('ai.routes.enabledOf', { name: r.name })} /> },
    { title: t('ai.routes.forBranches'), key: 'for_branches', render: (_, r) => <FlagSwitch route={r} flag="for_branches" label={t('ai.routes.forBranchesOf', { name: r.name })} /> },
    {
      title: <span className="visually-hidden">{t('ai.actions')}</span>,
      key: 'actions',
      render: (_, r) => (
        <Space wrap>
          {before?.(r)}
          <Button size="small" onClick={() => onEdit(r)} aria-label={t('ai.editOf', { name: r.name })}>
            {t('ai.edit')}
          </Button>
          <DeleteRoute route={r} />
        </Space>
      ),
    },
  ];
}
