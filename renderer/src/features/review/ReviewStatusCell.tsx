import { useTranslation } from 'react-i18next';
import { Typography } from 'antd';
import { StatusTag } from '../../components/StatusTag';
import { reviewLabel, reviewTone } from './status';

/** A reviewed item's status in a table cell, with the reason when it was rejected. */
export function ReviewStatusCell({ status, rejectReason }: { status: 'pending' | 'approved' | 'rejected'; rejectReason: string | null }) {
  const { t } = useTranslation();
  return (
    <>
      <StatusTag tone={reviewTone[status]}>{t(reviewLabel[status])}</StatusTag>
      {rejectReason && (
        <div>
          <Typography.Text type="secondary">{rejectReason}</Typography.Text>
        </div>
      )}
    </>
  );
}
