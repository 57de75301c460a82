import { clipboard, dialog, type BrowserWindow } from 'electron';
import type { StartupErrorMessage } from './startup-errors.js';

/** A first start created the admin with a generated password: the only moment it can be shown. */
export async function showGeneratedAdminPassword(username: string, password: string): Promise<void> {
  await dialog.showMessageBox({
    type: 'info',
    title: 'Administrator account created',
    message: 'Trainbench created an administrator account',
    detail: `Username: ${username}\nPassword: ${password}\n\nWrite the password down now: it is not shown again. You can change it after logging in.`,
    buttons: ['I have noted it'],
  });
}

export function showStartupError({ title, detail }: StartupErrorMessage): void {
  dialog.showErrorBox(title, detail);
}

/** Asked once per downloaded update; "Later" installs it when the app quits. */
export async function askToRestartForUpdate(window: BrowserWindow | null, version: string): Promise<boolean> {
  const options = {
    type: 'question' as const,
    title: 'Update ready',
    message: `Trainbench ${version} is ready to install`,
    detail: 'Restart now to install it, or it will be installed the next time you quit Trainbench. Your work is saved on this computer either way.',
    buttons: ['Restart now', 'Later'],
    defaultId: 0,
    cancelId: 1,
  };
  const { response } = window ? await dialog.showMessageBox(window, options) : await dialog.showMessageBox(options);
  return response === 0;
}

export async function showAbout(window: BrowserWindow | null, text: { message: string; detail: string }): Promise<void> {
  const options = { type: 'info' as const, title: 'About Trainbench', ...text, buttons: ['OK', 'Copy'], defaultId: 0, cancelId: 0 };
  const { response } = window ? await dialog.showMessageBox(window, options) : await dialog.showMessageBox(options);
  if (response === 1) clipboard.writeText(`${text.message}\n${text.detail}`);
}

export type GaveUpChoice = 'retry' | 'logs' | 'quit';

/** The server keeps stopping: the user chooses what happens next. */
export async function askAfterServerGaveUp(window: BrowserWindow | null, reason: string): Promise<GaveUpChoice> {
  const options = {
    type: 'error' as const,
    title: 'Trainbench stopped working',
    message: 'The local server keeps stopping',
    detail: `${reason}\n\nWhat was saved is kept. Try again, or open the log folder and send its files to your support contact.`,
    buttons: ['Try again', 'Open log folder', 'Quit'],
    defaultId: 0,
    cancelId: 2,
  };
  const { response } = window ? await dialog.showMessageBox(window, options) : await dialog.showMessageBox(options);
  return (['retry', 'logs', 'quit'] as const)[response] ?? 'quit';
}
