import { dialog } from 'electron';
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
