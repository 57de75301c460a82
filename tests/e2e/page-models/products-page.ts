import type { Locator, Page } from 'playwright-core';
import { zh } from '../i18n.js';
import { pickRadio } from '../antd.js';

export class ProductsPage {
  constructor(private readonly page: Page) {}

  list(): Locator {
    return this.page.getByRole('list', { name: zh('products.title') });
  }

  card(name: string): Locator {
    return this.list().getByRole('link').filter({ hasText: name });
  }

  /** The category filter: "全部" or a category as shown (humanized). */
  async filterBy(category: string): Promise<void> {
    await pickRadio(this.page.getByRole('radiogroup', { name: zh('common.filter.category') }), category);
  }

  async search(q: string): Promise<void> {
    const box = this.page.getByRole('searchbox', { name: zh('common.filter.search') }).or(this.page.getByRole('textbox', { name: zh('common.filter.search') }));
    await box.fill(q);
    await box.press('Enter');
  }
}
