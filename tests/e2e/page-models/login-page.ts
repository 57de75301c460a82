import type { Page } from 'playwright-core';
import { text, type Language } from '../i18n.js';

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
}
