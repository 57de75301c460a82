import type { Locator, Page } from 'playwright-core';
import { zh } from '../i18n.js';
import { chooseOption } from '../antd.js';

/** 用户 (admin): a server-paged table with a name search, a "new user" dialog (department and position pickers), and per-row role and status. */
export class UsersPage {
  constructor(private readonly page: Page) {}

  row(username: string): Locator {
    return this.page.getByRole('table', { name: zh('admin.users.title') }).getByRole('row').filter({ hasText: username });
  }

  async search(q: string): Promise<void> {
    const box = this.page.getByRole('search', { name: zh('admin.users.search') }).getByRole('searchbox').or(this.page.getByRole('search', { name: zh('admin.users.search') }).getByRole('textbox'));
    await box.fill(q);
    await box.press('Enter');
  }

  dialog(): Locator {
    return this.page.getByRole('dialog', { name: zh('admin.users.new') });
  }

  async create(user: { username: string; fullName: string; password: string; department?: string; position?: string }): Promise<void> {
    await this.page.getByRole('button', { name: zh('admin.users.new') }).click();
    const form = this.dialog().getByRole('form', { name: zh('admin.users.new') });
    await form.getByLabel(zh('admin.users.username')).fill(user.username);
    await form.getByLabel(zh('admin.users.fullName')).fill(user.fullName);
    await form.getByLabel(zh('admin.users.password'), { exact: true }).fill(user.password);
    if (user.department) await chooseOption(this.page, form.getByRole('combobox', { name: zh('admin.users.department') }), user.department, { search: true });
    if (user.position) await chooseOption(this.page, form.getByRole('combobox', { name: zh('admin.users.position') }), user.position, { search: true });
    await form.getByRole('button', { name: zh('admin.users.create') }).click();
  }

  async disable(username: string, name: string): Promise<void> {
    await this.row(username).getByRole('button', { name: zh('admin.users.disable') }).click();
    await this.page.getByRole('tooltip').filter({ hasText: zh('admin.users.disableConfirm', { name }) }).getByRole('button', { name: zh('admin.users.disable') }).click();
  }
}
