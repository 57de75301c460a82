import { useTranslation } from 'react-i18next';
import { Typography } from 'antd';
import { useFormat } from '../../i18n/format';

/** A due date; in red with "已逾期" when it has passed with work not done. */
export function DueDate({ due, overdue }: { due: string; overdue: boolean }) {
  const { t } = useTranslation();
  const format = useFormat();
  return overdue ? (
    <Typography.Text type="danger" className="due-overdue">
      {format.dateTime(due)} · {t('assignments.status.overdue')}
    </Typography.Text>
  ) : (
    <span>{format.dateTime(due)}</span>
  );
}
