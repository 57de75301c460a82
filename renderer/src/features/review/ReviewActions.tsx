import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Input, Space } from 'antd';
import { ErrorNotice } from '../../components/states';

interface Props {
  /** Names the item in accessible labels ("Approve handbook.pdf"). */
  name: string;
  busy: boolean;
  error: unknown;
  onApprove(): void;
  onReject(reason: string): void;
}

/** Approve, or reject with a reason typed inline (the server refuses a blank reason). */
export function ReviewActions({ name, busy, error, onApprove, onReject }: Props) {
  const { t } = useTranslation();
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  return (
    <div className="review-actions">
      {rejecting ? (
        <form
          aria-label={t('media.review.rejectNamed', { name })}
          onSubmit={(event) => {
            event.preventDefault();
            onReject(reason.trim());
          }}
        >
          <Space.Compact>
            <Input aria-label={t('media.review.reason')} placeholder={t('media.review.reason')} required maxLength={2000} value={reason} onChange={(e) => setReason(e.target.value)} autoFocus />
            <Button htmlType="submit" danger disabled={busy || !reason.trim()}>
              {t('media.review.reject')}
            </Button>
            <Button onClick={() => setRejecting(false)}>{t('common.action.cancel')}</Button>
          </Space.Compact>
        </form>
      ) : (
        <Space>
          <Button size="small" type="primary" disabled={busy} onClick={onApprove} aria-label={t('media.review.approveNamed', { name })}>
            {t('media.review.approve')}
          </Button>
          <Button size="small" disabled={busy} onClick={() => setRejecting(true)} aria-label={t('media.review.startRejectNamed', { name })}>
            {t('media.review.startReject')}
          </Button>
        </Space>
      )}
      {error !== null && error !== undefined && <ErrorNotice error={error} />}
    </div>
  );
}
