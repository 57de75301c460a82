import { clipboard, dialog, type BrowserWindow } from 'electron';
import type { StartupErrorMessage } from './startup-errors.js';
import type { MainT } from './i18n.js';

/** A first start created the admin with a generated password: the only moment it can be shown. */
export async function showGeneratedAdminPassword(t: MainT, username: string, password: string): Promise<void> {
  await dialog.showMessageBox({
    type: 'info',
    title: t('admin.title'),
    message: t('admin.message'),
    detail: t('admin.detail', { username, password }),
    buttons: [t('admin.ok')],
  });
}

export function showStartupError({ title, detail }: StartupErrorMessage): void {
  dialog.showErrorBox(title, detail);
}

/** Asked once per downloaded update; "Later" installs it when the app quits. */
export async function askToRestartForUpdate(t: MainT, window: BrowserWindow | null, version: string): Promise<boolean> {
  const options = {
    type: 'question' as const,
    title: t('update.title'),
    message: t('update.message', { version }),
    detail: t('update.detail'),
    buttons: [t('update.restart'), t('update.later')],
    defaultId: 0,
    cancelId: 1,
  };
  const { response } = window ? await dialog.showMessageBox(window, options) : await dialog.showMessageBox(options);
  return response === 0;
}

export async function showAbout(t: MainT, window: BrowserWindow | null, text: { message: string; detail: string }): Promise<void> {
  const options = { type: 'info' as const, title: t('about.title'), ...text, buttons: [t('about.ok'), t('about.copy')], defaultId: 0, cancelId: 0 };
  const { response } = window ? await dialog.showMessageBox(window, options) : await dialog.showMessageBox(options);
  if (response === 1) clipboard.writeText(`${text.message}\n${text.detail}`);
}

export type GaveUpChoice = 'retry' | 'logs' | 'quit';

/** The server keeps stopping: the user chooses what happens next. */
export async function askAfterServerGaveUp(t: MainT, window: BrowserWindow | null, reason: string): Promise<GaveUpChoice> {
  const options = {
    type: 'error' as const,
    title: t('server.gaveUpTitle'),
    message: t('server.gaveUpMessage'),
    detail: t('server.gaveUpDetail', { reason }),
    buttons: [t('server.retry'), t('server.openLogs'), t('server.quit')],
    defaultId: 0,
    cancelId: 2,
  };
  const { response } = window ? await dialog.showMessageBox(window, options) : await dialog.showMessageBox(options);
  return (['retry', 'logs', 'quit'] as const)[response] ?? 'quit';
}

/** The page asked to stay (an exam in progress sets beforeunload); Electron would cancel the close silently. */
export function confirmLeavingPage(t: MainT, window: BrowserWindow): boolean {
  const response = dialog.showMessageBoxSync(window, {
    type: 'warning',
    title: t('leave.title'),
    message: t('leave.message'),
    detail: t('leave.detail'),
    buttons: [t('leave.stay'), t('leave.leave')],
    defaultId: 0,
    cancelId: 0,
  });
  return response === 1;
}
