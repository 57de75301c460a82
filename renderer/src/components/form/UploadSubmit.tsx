import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Progress, Space, Typography } from 'antd';
import { useFormat } from '../../i18n/format';

/** An upload that can be cancelled: `start()` gives the request its signal, `cancel()` aborts it. */
export function useCancellable() {
  const controller = useRef<AbortController | null>(null);
  return {
    start: () => {
      controller.current = new AbortController();
      return controller.current.signal;
    },
    cancel: () => controller.current?.abort(),
  };
}

interface Props {
  sending: boolean;
  submitLabel: string;
  sendingLabel: string;
  /** Names the progress bar. */
  progressLabel: string;
  sent: number;
  total: number;
  onCancel(): void;
}

/** A file form's submit button; while the file goes, a cancel button and how much of it is sent. */
export function UploadSubmit({ sending, submitLabel, sendingLabel, progressLabel, sent, total, onCancel }: Props) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <>
      <Space>
        <Button type="primary" htmlType="submit" loading={sending}>
          {sending ? sendingLabel : submitLabel}
        </Button>
        {sending && (
          <Button disabled={false} onClick={onCancel}>
            {t('common.action.cancel')}
          </Button>
        )}
      </Space>
      {sending && (
        <div className="section-top">
          <Progress percent={total > 0 ? Math.floor((sent / total) * 100) : 100} aria-label={progressLabel} />
          <Typography.Text type="secondary">{t('media.upload.sent', { sent: format.bytes(sent), total: format.bytes(total) })}</Typography.Text>
        </div>
      )}
    </>
  );
}
