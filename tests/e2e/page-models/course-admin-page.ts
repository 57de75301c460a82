import type { Locator, Page } from 'playwright-core';
import { zh } from '../i18n.js';
import { chooseOption } from '../antd.js';

/** 课程管理 (admin): the course list, the new-course dialog and the course editor with its bound products. */
export class CourseAdminPage {
  constructor(private readonly page: Page) {}

  row(title: string): Locator {
    return this.page.getByRole('table', { name: zh('content.courses.title') }).getByRole('row').filter({ hasText: title });
  }

  async create(fields: { title: string; category?: string; duration?: string; content?: string }): Promise<void> {
    await this.page.getByRole('button', { name: zh('content.courses.new') }).click();
    const form = this.page.getByRole('form', { name: zh('content.courses.new') });
    await form.getByLabel(zh('content.courses.name')).fill(fields.title);
    if (fields.category) await form.getByLabel(zh('content.courses.category')).fill(fields.category);
    if (fields.duration) await form.getByLabel(zh('content.courses.duration')).fill(fields.duration);
    if (fields.content) await form.getByLabel(zh('content.courses.content')).fill(fields.content);
    await form.getByRole('button', { name: zh('common.action.save') }).click();
  }

  bound(): Locator {
    return this.page.getByRole('table', { name: zh('content.courses.boundProducts') });
  }

  boundRow(name: string): Locator {
    return this.bound().getByRole('row').filter({ hasText: name });
  }

  async bind(product: string): Promise<void> {
    await chooseOption(this.page, this.page.getByRole('combobox', { name: zh('content.courses.productToBind') }), product, { search: true });
    await this.page.getByRole('button', { name: zh('content.courses.bind'), exact: true }).click();
  }

  async unbind(product: string): Promise<void> {
    await this.boundRow(product).getByRole('button', { name: zh('content.courses.unbindOne', { name: product }) }).click();
  }
}
