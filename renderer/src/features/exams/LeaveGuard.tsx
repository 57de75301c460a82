import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Modal } from 'antd';

/**
 * While `active`, leaving asks first: a link or the back button inside the app opens a dialog; closing or reloading
 * the window gets the browser's own question (in the desktop app, main/window.ts asks through `will-prevent-unload`).
 */
export function LeaveGuard({ active }: { active: boolean }) {
  const { t } = useTranslation();
  const blocker = useBlocker(active);
  useEffect(() => {
    if (!active) return;
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older Chromium (and Electron) want returnValue set as well.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [active]);
  return (
    <Modal
      open={blocker.state === 'blocked'}
      title={t('exams.leave.title')}
      okText={t('exams.leave.leave')}
      cancelText={t('exams.leave.stay')}
      okButtonProps={{ danger: true }}
      onOk={() => blocker.proceed?.()}
      onCancel={() => blocker.reset?.()}
    >
      {t('exams.leave.text')}
    </Modal>
  );
}
