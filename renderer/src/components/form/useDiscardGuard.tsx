import { useRef } from 'react';
import { Modal } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * Closing a dialog that holds unsaved input asks first ("放弃未保存的修改？"). The one place every form dialog gets
 * this from: FormDialog uses it with its form's isDirty, dialogs with their own state pass whether anything was entered.
 * Render `holder` inside the dialog's component (the confirm takes the app's theme and language from there).
 */
export function useDiscardGuard() {
  const { t } = useTranslation();
  const [modal, holder] = Modal.useModal();
  // Escape pressed twice, or the mask clicked while asking, asks once.
  const asking = useRef(false);
  const requestClose = (dirty: boolean, close: () => void) => {
    if (!dirty) return close();
    if (asking.current) return;
    asking.current = true;
    void modal.confirm({
      title: t('common.discard.title'),
      content: t('common.discard.text'),
      okText: t('common.discard.ok'),
      okButtonProps: { danger: true },
      cancelText: t('common.discard.keep'),
      onOk: close,
      afterClose: () => {
        asking.current = false;
      },
    });
  };
  return { requestClose, holder };
}
