// What the desktop app's main process tells the window: the embedded server restarting or stopped, and a new
// version downloading or ready to install. Loaded only inside the desktop app (Shell): a plain browser (npm run
// server) has no bridge, and does not download this module's antd parts.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Modal, Progress } from 'antd';
import type { ServerStatus, UpdateStatus } from '../api/types';
import { desktopBridge } from './desktop';

/** The latest value a bridge subscription delivered (undefined until the first one, or without a bridge). */
function useBridgeEvent<T>(subscribe: ((listener: (value: T) => void) => () => void) | undefined, initial?: () => Promise<T>): T | undefined {
  const [value, setValue] = useState<T>();
  useEffect(() => {
    if (!subscribe) return undefined;
    let live = true;
    void initial?.().then((first) => live && setValue((current) => current ?? first));
    const unsubscribe = subscribe((next) => setValue(next));
    return () => {
      live = false;
      unsubscribe();
    };
    // The bridge is fixed for the window's life: subscribe once.
  }, []);
  return value;
}

function ServerStatusNotice() {
  const { t } = useTranslation();
  const bridge = desktopBridge();
  const status = useBridgeEvent<ServerStatus>(bridge && ((listener) => bridge.onServerStatus(listener)));
  if (!status || status.state === 'running') return null;
  const restarting = status.state === 'restarting';
  return (
    <Alert
      data-testid="server-status"
      className="connection-banner"
      type={restarting ? 'warning' : 'error'}
      banner
      showIcon
      role={restarting ? 'status' : 'alert'}
      title={t(restarting ? 'system.server.restarting' : 'system.server.stopped')}
      description={t(restarting ? 'system.server.restartingHint' : 'system.server.stoppedHint')}
    />
  );
}

/** Downloading in the background: progress; downloaded: ask before restarting. Errors and offline stay silent. */
function UpdateNotice() {
  const { t } = useTranslation();
  const [modal, modalHolder] = Modal.useModal();
  const bridge = desktopBridge();
  const status = useBridgeEvent<UpdateStatus>(bridge && ((listener) => bridge.onUpdateStatus(listener)), bridge && (() => bridge.getUpdateStatus()));
  const [later, setLater] = useState<string | null>(null);
  if (!bridge || !status) return null;
  if (status.state === 'downloading' && status.progress) {
    return (
      <Alert
        data-testid="update-notice"
        banner
        type="info"
        role="status"
        title={t('system.update.downloading', { version: status.available_version ?? '' })}
        description={<Progress percent={Math.floor(status.progress.percent)} size="small" aria-label={t('system.update.progress')} />}
      />
    );
  }
  const version = status.downloaded_version;
  if (status.state !== 'downloaded' || !version || later === version) return null;
  const confirmRestart = () =>
    modal.confirm({
      title: t('system.update.confirmTitle', { version }),
      content: t('system.update.confirmBody'),
      okText: t('system.update.restart'),
      cancelText: t('system.update.later'),
      onOk: () => bridge.installUpdate(),
    });
  return (
    <>
      {modalHolder}
      <Alert
      data-testid="update-notice"
      banner
      type="success"
      role="status"
      title={t('system.update.ready', { version })}
      action={
        <>
          <Button size="small" type="primary" onClick={confirmRestart}>
            {t('system.update.restart')}
          </Button>
          <Button size="small" type="text" onClick={() => setLater(version)}>
            {t('system.update.later')}
          </Button>
        </>
      }
    />
    </>
  );
}

export default function DesktopNotices() {
  return (
    <>
      <ServerStatusNotice />
      <UpdateNotice />
    </>
  );
}
