import type { Page } from 'playwright-core';
import { text, type Language } from '../i18n.js';
import { Shell } from './shell.js';

export class LoginPage {
  constructor(
    private readonly page: Page,
    private readonly language: Language = 'zh-CN',
  ) {}

  private t = (key: string) => text(this.language, key);

  form() {
    return this.page.getByRole('form', { name: this.t('auth.title') });
  }

  async logIn(username: string, password: string): Promise<void> {
    const form = this.form();
    await form.getByLabel(this.t('auth.username')).fill(username);
    await form.getByLabel(this.t('auth.password')).fill(password);
    await form.getByRole('button', { name: this.t('auth.submit') }).click();
    await this.page.getByTestId('signed-in-user').waitFor();
  }

  /** Opens the app at `appUrl` and signs in as this user, signing out first whoever the restored session belongs to. */
  async logInAfresh(appUrl: string, username: string, password: string): Promise<void> {
    await this.page.goto(appUrl);
    // The app restores a saved session after loading: wait for it to settle on one screen or the other.
    const shell = new Shell(this.page, this.language);
    await shell.signedInUser.or(this.form()).waitFor();
    if (await shell.signedInUser.count()) await shell.logOut();
    await this.logIn(username, password);
  }
}
