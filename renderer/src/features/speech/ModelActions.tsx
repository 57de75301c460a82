import { useTranslation } from 'react-i18next';
import { Button, Popconfirm, Space } from 'antd';
import { ErrorNotice } from '../../components/states';
import { useRemoveModel, useVerifyModel, type ModelShelfUi } from './mutations';

/** Verify (hash again) and, for an installed file, remove: for any model shelf. `texts` is the i18n prefix. */
export function ModelActions({ model, shelf, texts }: { model: { name: string; location: 'resources' | 'data' }; shelf: ModelShelfUi; texts: 'speech.models' | 'ai.localModels.models' }) {
  const { t } = useTranslation();
  const verify = useVerifyModel(shelf);
  const remove = useRemoveModel(shelf);
  return (
    <>
      <Space>
        <Button size="small" loading={verify.isPending} onClick={() => verify.mutate(model.name)} aria-label={t(`${texts}.verifyNamed`, { name: model.name })}>
          {t(`${texts}.verify`)}
        </Button>
        {model.location === 'data' && (
          <Popconfirm title={t(`${texts}.removeConfirm`, { name: model.name })} okText={t(`${texts}.remove`)} okButtonProps={{ danger: true }} cancelText={t('common.action.cancel')} onConfirm={() => remove.mutate(model.name)}>
            <Button size="small" danger loading={remove.isPending} aria-label={t(`${texts}.removeNamed`, { name: model.name })}>
              {t(`${texts}.remove`)}
            </Button>
          </Popconfirm>
        )}
      </Space>
      {verify.isSuccess && <div role="status">{t(`${texts}.verified`, { sha: verify.data.sha256.slice(0, 12) })}</div>}
      {verify.error && <ErrorNotice error={verify.error} />}
      {remove.error && <ErrorNotice error={remove.error} />}
    </>
  );
}
