import type { Page } from 'playwright-core';

export class LoginPage {
  constructor(private readonly page: Page) {}

  async logIn(username: string, password: string): Promise<void> {
    const form = this.page.getByRole('form', { name: 'Log in' });
    await form.getByLabel('Username').fill(username);
    await form.getByLabel('Password').fill(password);
    await form.getByRole('button', { name: 'Log in' }).click();
    await this.page.getByRole('navigation', { name: 'Main' }).waitFor();
  }
}
