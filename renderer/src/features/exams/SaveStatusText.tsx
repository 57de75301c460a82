import { useTranslation } from 'react-i18next';
import { Typography } from 'antd';
import type { SaveStatus } from './useAutosave';

/** Whether the answers have reached the server, announced politely to screen readers. */
export function SaveStatusText({ status }: { status: SaveStatus }) {
  const { t } = useTranslation();
  return (
    <span role="status" aria-live="polite" className="save-status" data-status={status}>
      {status !== 'idle' && <Typography.Text type={status === 'retrying' ? 'warning' : 'secondary'}>{t(`exams.session.save.${status}`)}</Typography.Text>}
    </span>
  );
}
