import { useTranslation } from 'react-i18next';
import { Spin } from 'antd';

export function Loading({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <div className="state-loading" role="status">
      <Spin />
      <span>{label ?? t('common.state.loading')}</span>
    </div>
  );
}
